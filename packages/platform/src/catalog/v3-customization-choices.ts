import type { Static } from 'typebox';
import type { HttpApp } from '../http/app.ts';
import { applicationError } from '../shared/errors.ts';
import { CATALOG_OPERATIONS } from './operations-access.ts';
import type { CatalogEntitiesV3 } from './v3-entities.ts';
import type { StoredChoice } from './v3-entity-kinds.ts';
import {
  type CustomizationChoiceInput,
  customizationChoiceSchemas,
  type EntityFieldsInput,
} from './v3-entity-schemas.ts';
import { bulk } from './v3-products.ts';
import { json } from './v3-read-route.ts';
import { entityAnswers } from './v3-responses.ts';
import { Violations } from './validation.ts';

/**
 * The hosted `customizationsV3` module's choice calls over one customization's choice list: add, set,
 * remove, update and reorder choices, and bulk add. Each makes the new list from the stored one and
 * saves it as an update does (`CatalogEntitiesV3.changeChoices`: the same checks, ids kept by name,
 * the revision moved, `customization` `updated` written).
 */

const SCHEMAS = customizationChoiceSchemas(['ASSIGNED_PRODUCTS_COUNT', 'CHOICE_DISPLAY_IMAGE']);

/** A stored choice as a call's input again (so an unchanged choice keeps its id and price). */
const inputOf = (choice: StoredChoice): CustomizationChoiceInput => ({
  id: choice.id,
  choiceType: choice.choiceType as CustomizationChoiceInput['choiceType'],
  name: choice.name,
  ...(choice.colorCode !== undefined ? { colorCode: choice.colorCode } : {}),
  ...(choice.defaultAddedPrice !== undefined ? { defaultAddedPrice: choice.defaultAddedPrice } : {}),
});

/** Refuses ids naming no choice of the customization, each at its place in `field`. */
function checkKnown(ids: string[], choices: StoredChoice[], field: string): void {
  const v = new Violations();
  for (const [index, id] of ids.entries()) {
    if (!choices.some((choice) => choice.id === id))
      v.add(`${field}[${index}]`, 'names no choice of this customization', 'VALIDATION');
  }
  v.throwIfAny();
}

export const addChoices = (added: CustomizationChoiceInput[]) => (before: StoredChoice[]) => [
  ...before.map(inputOf),
  // a new choice gets a new id, whatever it says
  ...added.map(({ id: _id, ...choice }) => choice),
];

export const removeChoices = (ids: string[]) => (before: StoredChoice[]) => {
  checkKnown(ids, before, 'choiceIds');
  return before.filter((choice) => !ids.includes(choice.id)).map(inputOf);
};

export const updateChoices = (changes: CustomizationChoiceInput[]) => (before: StoredChoice[]) => {
  const v = new Violations();
  for (const [index, change] of changes.entries()) {
    if (!change.id) v.add(`choices[${index}].choice.id`, 'is required', 'REQUIRED_FIELD');
  }
  v.throwIfAny();
  checkKnown(
    changes.map((change) => change.id as string),
    before,
    'choices',
  );
  return before.map((choice) => {
    const change = changes.find((candidate) => candidate.id === choice.id);
    return change ? { ...inputOf(choice), ...change } : inputOf(choice);
  });
};

export const reorderChoices = (ids: string[]) => (before: StoredChoice[]) => {
  const known = new Set(before.map((choice) => choice.id));
  const missingIds = before.map((choice) => choice.id).filter((id) => !ids.includes(id));
  const extraIds = ids.filter((id, index) => !known.has(id) || ids.indexOf(id) !== index);
  if (missingIds.length > 0 || extraIds.length > 0) {
    throw applicationError(
      'INVALID_ARGUMENT',
      'CHOICE_IDS_MISMATCH',
      'choiceIds must name every choice of the customization once',
      { missingIds, extraIds },
    );
  }
  return ids.map((id) => inputOf(before.find((choice) => choice.id === id)!));
};

export function customizationChoiceRoutes(app: HttpApp, customizations: CatalogEntitiesV3): void {
  const answers = entityAnswers('customization', 'customizations', 'customization');
  const base = '/stores/v3/customizations/:customizationId';
  const idOf = (params: unknown) => (params as { customizationId: string }).customizationId;
  const route = <B>(
    verb: string,
    operation: keyof typeof CATALOG_OPERATIONS,
    body: (typeof SCHEMAS)[keyof typeof SCHEMAS],
    change: (input: B) => {
      revision?: string | undefined;
      change: Parameters<CatalogEntitiesV3['changeChoices']>[2];
    },
  ) =>
    app.post(
      `${base}/${verb}`,
      {
        config: CATALOG_OPERATIONS[operation],
        schema: { params: SCHEMAS.path, body, response: { 200: answers.one } },
      },
      async (request, reply) => {
        const input = request.body as B & { fields?: EntityFieldsInput };
        const call = change(input);
        const answer = await customizations.changeChoices(
          idOf(request.params),
          call.revision,
          call.change,
          input.fields,
        );
        return json(reply, JSON.stringify(answer));
      },
    );

  route<Static<typeof SCHEMAS.add>>('add-choices', 'addCustomizationChoicesV3', SCHEMAS.add, (input) => ({
    change: addChoices(input.choices),
  }));
  route<Static<typeof SCHEMAS.set>>('set-choices', 'setCustomizationChoicesV3', SCHEMAS.set, (input) => ({
    change: () => input.choices,
  }));
  route<Static<typeof SCHEMAS.remove>>(
    'remove-choices',
    'removeCustomizationChoicesV3',
    SCHEMAS.remove,
    (input) => ({ revision: input.revision, change: removeChoices(input.choiceIds) }),
  );
  route<Static<typeof SCHEMAS.update>>(
    'update-choices',
    'updateCustomizationChoicesV3',
    SCHEMAS.update,
    (input) => ({
      revision: input.revision,
      change: updateChoices(input.choices.map((item) => item.choice)),
    }),
  );
  route<Static<typeof SCHEMAS.reorder>>(
    'reorder-choices',
    'reorderCustomizationChoicesV3',
    SCHEMAS.reorder,
    (input) => ({ revision: input.revision, change: reorderChoices(input.choiceIds) }),
  );

  app.post(
    '/stores/v3/bulk/customizations/add-choices',
    {
      config: CATALOG_OPERATIONS.bulkAddCustomizationChoicesV3,
      schema: { body: SCHEMAS.bulkAdd, response: { 200: answers.bulk } },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof SCHEMAS.bulkAdd>;
      const answer = await bulk(
        body.customizationsChoices,
        async (item) => {
          const changed = await customizations.changeChoices(
            item.customizationId,
            undefined,
            addChoices(item.choices),
            body.fields as EntityFieldsInput,
          );
          return { id: item.customizationId, item: body.returnEntity ? changed.customization : undefined };
        },
        (item) => item.customizationId,
      );
      const results = answer.results.map(({ item, ...rest }) =>
        item === undefined ? rest : { ...rest, customization: item },
      );
      return json(reply, JSON.stringify({ ...answer, results }));
    },
  );
}
