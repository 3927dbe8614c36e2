import type { DescriptionLine } from '@cartwheel/sdk';
import type { ModifierRecord, ProductRecord } from '../catalog/model.ts';
import { Big } from '../shared/money.ts';

/**
 * What a catalog line's modifiers add, as the hosted v3 cart reads them from `catalogReference.options`:
 * a choice modifier's choice under `options.options` (modifier key → choice key, beside the options that
 * name the variant), a free text under `options.customTextFields` (its key → the shopper's text). Keys
 * and choices compare without case or surrounding spaces, as the variant's choices do.
 */
export type ChosenModifiers =
  | { ok: true; addedPrice: Big; descriptionLines: DescriptionLine[] }
  | { ok: false; problem: string };

const NONE: ChosenModifiers = { ok: true, addedPrice: new Big(0), descriptionLines: [] };

const normal = (text: unknown) =>
  String(text ?? '')
    .trim()
    .toLowerCase();

export function chosenModifiers(
  record: ProductRecord,
  options: Record<string, unknown> | null | undefined,
): ChosenModifiers {
  const modifiers = record.modifiers ?? [];
  const texts = entriesOf(options?.customTextFields);
  if (modifiers.length === 0 && texts.size === 0) return NONE;
  const choices = entriesOf(options?.options);
  let addedPrice = new Big(0);
  const descriptionLines: DescriptionLine[] = [];
  for (const modifier of modifiers) {
    const chosen = modifier.freeText
      ? freeTextOf(modifier, texts.get(normal(modifier.freeText.title)))
      : choiceOf(modifier, choices.get(normal(modifier.name)));
    if (!chosen.ok) return chosen;
    if (chosen.line) {
      addedPrice = addedPrice.plus(chosen.addedPrice);
      descriptionLines.push(chosen.line);
    }
  }
  // a v1 product's own custom text fields are shown, never priced; a text naming no field is kept unshown
  for (const field of record.customTextFields) {
    const title = field.title ?? '';
    const text = texts.get(normal(title));
    if (text) descriptionLines.push(plainLine(title, text));
  }
  return { ok: true, addedPrice, descriptionLines };
}

type Chosen = { ok: true; addedPrice: Big; line?: DescriptionLine } | { ok: false; problem: string };

function choiceOf(modifier: ModifierRecord, wanted: string | undefined): Chosen {
  if (wanted === undefined || wanted === '') {
    return modifier.mandatory
      ? { ok: false, problem: `modifier ${JSON.stringify(modifier.name)} needs a choice` }
      : { ok: true, addedPrice: new Big(0) };
  }
  const choice = modifier.choices.find((candidate) => normal(candidate.name) === normal(wanted));
  if (!choice) {
    return {
      ok: false,
      problem: `modifier ${JSON.stringify(modifier.name)} has no choice ${JSON.stringify(wanted)}`,
    };
  }
  const name = { original: modifier.name, translated: modifier.name };
  const line: DescriptionLine =
    choice.colorCode === undefined
      ? plainLine(modifier.name, choice.name)
      : {
          name,
          colorInfo: { original: choice.name, translated: choice.name, code: choice.colorCode },
          lineType: 'COLOR',
        };
  return { ok: true, addedPrice: new Big(choice.addedPrice), line };
}

function freeTextOf(modifier: ModifierRecord, text: string | undefined): Chosen {
  const settings = modifier.freeText!;
  if (text === undefined || text.trim() === '') {
    return modifier.mandatory
      ? { ok: false, problem: `${JSON.stringify(settings.title)} needs a text` }
      : { ok: true, addedPrice: new Big(0) };
  }
  if (text.length < settings.minCharCount || text.length > settings.maxCharCount) {
    return {
      ok: false,
      problem: `the text for ${JSON.stringify(settings.title)} needs ${settings.minCharCount} to ${settings.maxCharCount} characters`,
    };
  }
  return { ok: true, addedPrice: new Big(settings.addedPrice), line: plainLine(settings.title, text) };
}

const plainLine = (name: string, text: string): DescriptionLine => ({
  name: { original: name, translated: name },
  plainText: { original: text, translated: text },
  lineType: 'PLAIN_TEXT',
});

/** A `{key: text}` map of the line's options, keys in their normal form (texts as given, kept strings). */
function entriesOf(value: unknown): Map<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return new Map();
  return new Map(
    Object.entries(value as Record<string, unknown>).map(([key, text]) => [normal(key), String(text ?? '')]),
  );
}

/**
 * What makes two lines of one variant different items: the modifiers chosen and the texts written, in
 * one spelling (undefined: none). Recorded on a line when it is added (`StoredLine.chosenModifiers`),
 * since only the product tells a modifier's choice from an option's in `options.options`.
 */
export function chosenModifiersKey(
  record: ProductRecord,
  options: Record<string, unknown> | null | undefined,
): string | undefined {
  const choices = entriesOf(options?.options);
  const names = new Set((record.modifiers ?? []).map((modifier) => normal(modifier.name)));
  const chosen = [...choices].filter(([key, choice]) => names.has(key) && choice !== '').sort();
  const texts = [...entriesOf(options?.customTextFields)].filter(([, text]) => text !== '').sort();
  return chosen.length === 0 && texts.length === 0 ? undefined : JSON.stringify([chosen, texts]);
}
