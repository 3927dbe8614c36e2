import type { RuleName } from '@cartwheel/sdk';
import Type from 'typebox';
import { OpenObject } from '../http/input.ts';

/**
 * Rich-content (Ricos) documents, as the hosted info sections' `description` carries them:
 * `{nodes: [...]}`, each node a `type`, its own `nodes` and its data (`textData.text` for text). They
 * are kept as given, bounded (a document of at most `MAX_RICH_CONTENT_CHARACTERS` as JSON, nodes
 * nested at most `MAX_RICH_CONTENT_DEPTH` deep), and their plain text answers for the description
 * where only text is read (v1, `plainDescription`).
 */

export const MAX_RICH_CONTENT_CHARACTERS = 100_000;
export const MAX_RICH_CONTENT_DEPTH = 12;
/** Objects and lists nested within the document, whatever they are (a node's data included). */
const MAX_JSON_DEPTH = 4 * MAX_RICH_CONTENT_DEPTH;

const AS_GIVEN = 'a Ricos document kept as given, bounded in size and depth by catalog/v3-rich-content.ts';

export const RichContentInput = Type.Object({
  nodes: Type.Optional(Type.Array(OpenObject(AS_GIVEN), { maxItems: 2000 })),
  metadata: Type.Optional(OpenObject(AS_GIVEN)),
  documentStyle: Type.Optional(OpenObject(AS_GIVEN)),
});

export interface RichContentNode {
  type?: string;
  id?: string;
  nodes?: RichContentNode[];
  textData?: { text?: string; decorations?: unknown[] };
  [data: string]: unknown;
}
export interface RichContent {
  nodes?: RichContentNode[];
  metadata?: Record<string, unknown>;
  documentStyle?: Record<string, unknown>;
}

/** Where a refusal goes: the caller's `Violations` (validation.ts, which needs the record's types). */
interface Refusals {
  add(field: string, description: string, rule: RuleName): void;
}

/** Refuses a document too large or too deep to keep; whether it may be kept. */
export function checkRichContent(v: Refusals, document: RichContent, path: string): boolean {
  const text = JSON.stringify(document);
  if (text.length > MAX_RICH_CONTENT_CHARACTERS) {
    v.add(path, `is over ${MAX_RICH_CONTENT_CHARACTERS} characters as JSON`, 'MAX_LENGTH');
    return false;
  }
  if (jsonDepth(document) > MAX_JSON_DEPTH || nodeDepth(document.nodes ?? []) > MAX_RICH_CONTENT_DEPTH) {
    v.add(path, `nests its nodes more than ${MAX_RICH_CONTENT_DEPTH} deep`, 'MAX');
    return false;
  }
  return true;
}

function nodeDepth(nodes: RichContentNode[]): number {
  let deepest = 0;
  for (const node of nodes) {
    const children = Array.isArray(node?.nodes) ? node.nodes : [];
    deepest = Math.max(deepest, 1 + nodeDepth(children));
    if (deepest > MAX_RICH_CONTENT_DEPTH) return deepest;
  }
  return deepest;
}

function jsonDepth(value: unknown, depth = 0): number {
  if (depth > MAX_JSON_DEPTH || typeof value !== 'object' || value === null) return depth;
  let deepest = depth + 1;
  for (const child of Object.values(value)) {
    deepest = Math.max(deepest, jsonDepth(child, depth + 1));
    if (deepest > MAX_JSON_DEPTH) break;
  }
  return deepest;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The text of a node and the nodes within it, in order. */
function textOf(node: RichContentNode): string {
  const own = typeof node?.textData?.text === 'string' ? node.textData.text : '';
  return own + (Array.isArray(node?.nodes) ? node.nodes.map(textOf).join('') : '');
}

/**
 * The document's text as the plain (HTML) description the hosted platform derives: a paragraph for
 * each top-level node that has text.
 */
export function plainDescriptionOf(document: RichContent): string {
  return (document.nodes ?? [])
    .map(textOf)
    .filter((text) => text !== '')
    .map((text) => `<p>${escapeHtml(text)}</p>`)
    .join('');
}

/** A plain description as a document: its text (tags taken off) in one paragraph; none for no text. */
export function documentOf(plain: string): RichContent {
  const text = plain
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return { nodes: [] };
  return {
    nodes: [
      {
        type: 'PARAGRAPH',
        id: 'p1',
        nodes: [{ type: 'TEXT', id: '', nodes: [], textData: { text, decorations: [] } }],
        paragraphData: {},
      },
    ],
  };
}
