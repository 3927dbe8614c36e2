import {
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import type { DomainErrorKind } from '../shared/errors.ts';

/**
 * What one GraphQL request may ask, checked before it costs anything: a query's text is measured
 * before it is parsed, its tokens while it is parsed (graphql-js stops at `maxTokens`), and its shape
 * before it is validated against the schema (graphql-js's own validation rules walk every pair of
 * same-named fields, work an attacker could choose). Sized for storefronts and back offices writing
 * their queries by hand: the largest this repository's tests and bench send is a tenth of each.
 */
export const GRAPHQL_LIMITS = {
  /** Characters of one query's text. */
  queryLength: 100_000,
  /** Tokens of one query (names, punctuation, values), counted by the parser. */
  tokens: 10_000,
  /** Fields nested in fields, fragments followed. */
  depth: 15,
  /** Fields asked under another name: each is the same work asked again. */
  aliases: 30,
  /** One point a field, ten more a root field (each is a service call): see `measure`. */
  cost: 2_000,
  /** Requests in one body sent as a list. */
  batch: 10,
} as const;

/** A refusal in GraphQL's form: the specification's kind as `extensions.code`, and its own code. */
export function graphqlRefusal(kind: DomainErrorKind, code: string, description: string): GraphQLError {
  return new GraphQLError(description, {
    extensions: { code: kind, details: { applicationError: { code, description } } },
  });
}

interface Measure {
  depth: number;
  aliases: number;
  cost: number;
  /** Whether it asks for the schema itself (`__schema`, `__type`). */
  introspects: boolean;
}

/**
 * The depth, aliases and cost of every operation of `document`, fragments followed. A walk stops as soon
 * as one limit is passed, so a document built to be expensive to measure (fragments spreading fragments
 * twice over) costs at most the limit's worth of steps; a fragment cycle is not followed round (the
 * schema's validation refuses it by name).
 */
export function measure(document: DocumentNode): Measure {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const found: Measure = { depth: 0, aliases: 0, cost: 0, introspects: false };
  const over = () =>
    found.depth > GRAPHQL_LIMITS.depth ||
    found.aliases > GRAPHQL_LIMITS.aliases ||
    found.cost > GRAPHQL_LIMITS.cost;

  const walk = (selections: SelectionSetNode, depth: number, following: Set<string>): void => {
    for (const selection of selections.selections) {
      if (over()) return;
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        if (name === '__schema' || name === '__type') found.introspects = true;
        if (selection.alias) found.aliases++;
        found.cost += depth === 1 ? 11 : 1;
        found.depth = Math.max(found.depth, depth);
        if (selection.selectionSet) walk(selection.selectionSet, depth + 1, following);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet, depth, following);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || following.has(name)) continue;
        walk(fragment.selectionSet, depth, new Set(following).add(name));
      }
    }
  };
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) walk(definition.selectionSet, 1, new Set());
  }
  return found;
}

/** Refuses a document past a limit, naming the first one it passes. */
export function checkShape(document: DocumentNode): Measure {
  const found = measure(document);
  if (found.depth > GRAPHQL_LIMITS.depth) {
    throw graphqlRefusal(
      'INVALID_ARGUMENT',
      'QUERY_TOO_DEEP',
      `the query nests fields deeper than ${GRAPHQL_LIMITS.depth} levels`,
    );
  }
  if (found.aliases > GRAPHQL_LIMITS.aliases) {
    throw graphqlRefusal(
      'INVALID_ARGUMENT',
      'TOO_MANY_ALIASES',
      `the query names more than ${GRAPHQL_LIMITS.aliases} aliases`,
    );
  }
  if (found.cost > GRAPHQL_LIMITS.cost) {
    throw graphqlRefusal(
      'INVALID_ARGUMENT',
      'QUERY_TOO_COSTLY',
      `the query asks for more than ${GRAPHQL_LIMITS.cost} points of work (a field 1, a root field 11)`,
    );
  }
  return found;
}
