import type { Kysely, Transaction } from 'kysely';
import type { Tables } from '../db/tables.ts';
import type { ModifierRecord, OptionRecord, ProductRecord } from './model.ts';
import type { StoredChoice } from './v3-entity-kinds.ts';
import { type EntityRow, entitiesByIds } from './v3-entity-rows.ts';
import type { ModifierInputV3, OptionInputV3, ProductInputV3 } from './v3-schemas.ts';
import type { Violations } from './validation.ts';

/**
 * A v3 product's options and modifiers may be customizations (the hosted `ConnectedOption.id`, "ID of
 * a customization"), assigned instead of written inline: the option takes its name, render type and
 * choices from the customization (the product picks which of its choices, by `choiceId`) and answers
 * the customization's id and its choices' ids. The record keeps copies (the customization's id on the
 * option, each choice's id on the choice), so carts price and v1 shows them as the product's own;
 * a change of the customization (a rename, a choice renamed) is written into its products' copies
 * (`refreshedFrom`), and one in use is not deleted (v3-entities.ts). Links of kind `customization`
 * say which products use which (v3-references.ts).
 */

/** A customization as an assignment reads it. */
export interface AssignedCustomization {
  id: string;
  name: string;
  type: 'PRODUCT_OPTION' | 'MODIFIER';
  renderType: 'FREE_TEXT' | 'TEXT_CHOICES' | 'SWATCH_CHOICES';
  choices: StoredChoice[];
  freeText?: { title?: string; minCharCount?: number; maxCharCount?: number; defaultAddedPrice?: string };
}

export type AssignedCustomizations = ReadonlyMap<string, AssignedCustomization>;

export function assignedOf(row: EntityRow): AssignedCustomization {
  const doc = JSON.parse(row.doc) as {
    choicesSettings?: { choices?: StoredChoice[] };
    freeTextInput?: AssignedCustomization['freeText'];
  };
  return {
    id: row.id,
    name: row.name,
    type: row.type as AssignedCustomization['type'],
    renderType: row.render_type as AssignedCustomization['renderType'],
    choices: doc.choicesSettings?.choices ?? [],
    ...(doc.freeTextInput ? { freeText: doc.freeTextInput } : {}),
  };
}

/** The customizations the input's options and modifiers name by id (ids naming none are not among them). */
export async function customizationsNamedBy(
  db: Kysely<Tables> | Transaction<Tables>,
  input: ProductInputV3,
): Promise<AssignedCustomizations> {
  const ids = [...(input.options ?? []), ...(input.modifiers ?? [])].flatMap((entry) =>
    entry.id ? [entry.id] : [],
  );
  if (ids.length === 0) return new Map();
  const rows = await entitiesByIds(db, 'customization', [...new Set(ids)]);
  return new Map(rows.map((row) => [row.id, assignedOf(row)]));
}

/** The customization's choices the input picks by `choiceId`, in the input's order. */
function picked(
  v: Violations,
  customization: AssignedCustomization,
  inputs: Array<{ choiceId?: string | null }>,
  path: string,
): StoredChoice[] {
  if (inputs.length === 0) v.add(path, 'needs at least one choice of the customization', 'MIN_SIZE');
  const seen = new Set<string>();
  return inputs.flatMap((input, index) => {
    const choice = customization.choices.find((candidate) => candidate.id === input.choiceId);
    if (!choice) {
      v.add(
        `${path}[${index}].choiceId`,
        `names no choice of customization ${JSON.stringify(customization.name)}`,
        input.choiceId ? 'VALIDATION' : 'REQUIRED_FIELD',
      );
      return [];
    }
    if (seen.has(choice.id))
      v.add(`${path}[${index}].choiceId`, 'names a choice picked before it', 'VALIDATION');
    seen.add(choice.id);
    return [choice];
  });
}

/** An option that is a `PRODUCT_OPTION` customization, with the choices the product picks of it. */
export function assignedOption(
  v: Violations,
  input: OptionInputV3,
  customization: AssignedCustomization,
  path: string,
): OptionRecord {
  if (customization.type !== 'PRODUCT_OPTION' || customization.renderType === 'FREE_TEXT')
    v.add(`${path}.id`, 'names a customization that is not a product option with choices', 'VALIDATION');
  const color = customization.renderType === 'SWATCH_CHOICES';
  const choices = picked(
    v,
    customization,
    input.choicesSettings?.choices ?? [],
    `${path}.choicesSettings.choices`,
  );
  return {
    name: customization.name,
    optionType: color ? 'color' : 'drop_down',
    customizationId: customization.id,
    choices: choices.map((choice) => ({
      value: color ? (choice.colorCode ?? '') : choice.name,
      description: choice.name,
      mediaIds: [],
      choiceId: choice.id,
    })),
  };
}

/**
 * A modifier that is a `MODIFIER` customization: its choices picked by `choiceId`, each at the added
 * price the product gives it, else the customization's default; a free text its settings.
 */
export function assignedModifier(
  v: Violations,
  input: ModifierInputV3,
  customization: AssignedCustomization,
  path: string,
): ModifierRecord {
  if (customization.type !== 'MODIFIER')
    v.add(`${path}.id`, 'names a customization that is not a modifier', 'VALIDATION');
  const mandatory = input.mandatory ?? input.toBeRemovedMandatory ?? false;
  const base = {
    name: customization.name,
    renderType: customization.renderType,
    mandatory,
    customizationId: customization.id,
  };
  if (customization.renderType === 'FREE_TEXT') {
    const free = customization.freeText ?? {};
    const given = input.freeTextSettings?.defaultAddedPrice;
    return {
      ...base,
      choices: [],
      freeText: {
        title: free.title || customization.name,
        minCharCount: free.minCharCount ?? 0,
        maxCharCount: free.maxCharCount ?? 500,
        addedPrice: Number(given ?? free.defaultAddedPrice ?? 0),
      },
    };
  }
  const inputs = input.choicesSettings?.choices ?? [];
  const choices = picked(v, customization, inputs, `${path}.choicesSettings.choices`);
  return {
    ...base,
    choices: choices.map((choice) => {
      const given = inputs.find((entry) => entry.choiceId === choice.id)?.addedPrice;
      return {
        name: choice.name,
        ...(choice.colorCode !== undefined ? { colorCode: choice.colorCode } : {}),
        addedPrice: Number(given ?? choice.defaultAddedPrice ?? 0),
        choiceId: choice.id,
      };
    }),
  };
}

/**
 * The record with its copies of `customization` made again from it: the option's or modifier's name,
 * its choices' names (and colors), by choice id, and the variants' choices that name them. A choice
 * the customization no longer has stays as the product had it.
 */
export function refreshedFrom(record: ProductRecord, customization: AssignedCustomization): ProductRecord {
  const byId = new Map(customization.choices.map((choice) => [choice.id, choice]));
  const options = record.options.map((option) => {
    if (option.customizationId !== customization.id) return option;
    const renamed = new Map<string, string>();
    const choices = option.choices.map((choice) => {
      const now = choice.choiceId ? byId.get(choice.choiceId) : undefined;
      if (!now) return choice;
      renamed.set(choice.description, now.name);
      const color = option.optionType === 'color';
      return { ...choice, description: now.name, value: color ? (now.colorCode ?? choice.value) : now.name };
    });
    const changed =
      option.name !== customization.name || [...renamed].some(([before, after]) => before !== after);
    // the variants name the option and its choices: renamed in place, their order kept
    if (changed) {
      for (const variant of record.variants) {
        variant.choices = Object.fromEntries(
          Object.entries(variant.choices).map(([name, chosen]) =>
            name === option.name ? [customization.name, renamed.get(chosen) ?? chosen] : [name, chosen],
          ),
        );
      }
    }
    return { ...option, name: customization.name, choices };
  });
  const modifiers = (record.modifiers ?? []).map((modifier) => {
    if (modifier.customizationId !== customization.id) return modifier;
    const choices = modifier.choices.map((choice) => {
      const now = choice.choiceId ? byId.get(choice.choiceId) : undefined;
      if (!now) return choice;
      return {
        ...choice,
        name: now.name,
        ...(now.colorCode !== undefined ? { colorCode: now.colorCode } : {}),
      };
    });
    const freeText =
      modifier.freeText && customization.freeText?.title
        ? { ...modifier.freeText, title: customization.freeText.title }
        : modifier.freeText;
    return { ...modifier, name: customization.name, choices, ...(freeText ? { freeText } : {}) };
  });
  return { ...record, options, ...(record.modifiers ? { modifiers } : {}) };
}
