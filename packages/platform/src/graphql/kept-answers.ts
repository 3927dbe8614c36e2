import { type DocumentNode, Kind, OperationTypeNode } from 'graphql';

/**
 * The catalog's reads a visitor gets are JSON text the catalog keeps for a moment (catalog/read-cache.ts),
 * served by REST as they are. GraphQL resolves fields over objects, so it parses that text; the same
 * text is parsed once here and its object shared by the requests that get it, until newer text takes its
 * place. Resolvers only read what they are given, so sharing is safe. Texts made for one admin's call
 * are parsed as they come and not kept.
 */
export class KeptAnswers {
  private readonly kept = new Map<string, unknown>();

  constructor(private readonly size = 64) {}

  parse(text: string, keep: boolean): any {
    if (!keep) return JSON.parse(text);
    let parsed = this.kept.get(text);
    if (parsed === undefined) {
      parsed = JSON.parse(text);
      if (this.kept.size >= this.size) this.kept.delete(this.kept.keys().next().value as string);
      this.kept.set(text, parsed);
    }
    return parsed;
  }
}

/**
 * The root fields whose answers are a visitor's product reads (the catalog's kept texts, the same for
 * every caller but the admin): a query asking only these may have its whole answer kept with them.
 */
const PRODUCT_READS = new Set(['products', 'product', 'productBySlug', '__typename']);

/** Whether every operation of `document` is a query asking only for product reads. */
export function readsOnlyProducts(document: DocumentNode): boolean {
  return document.definitions.every(
    (definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION ||
      (definition.kind === Kind.OPERATION_DEFINITION &&
        definition.operation === OperationTypeNode.QUERY &&
        definition.selectionSet.selections.every(
          (selection) => selection.kind === Kind.FIELD && PRODUCT_READS.has(selection.name.value),
        )),
  );
}
