import { useProductV3BySlug } from '@cartwheel/react';
import type { ConnectedModifier, Product } from '@cartwheel/sdk';
import { useId } from 'react';

/**
 * A product's modifiers on its page (the v3 product's `modifiers`): a choice that adds to the price
 * (gift wrap, a finish) or a text the shopper writes (an engraving). What the shopper picks rides on the
 * cart line's reference as the hosted v3 cart takes it (`modifierOptions`), and the platform prices it.
 */

/** What the shopper picked: each choice modifier's choice by its name, each free text by its key. */
export interface ModifierSelection {
  choices: Record<string, string>;
  texts: Record<string, string>;
}

export const NO_MODIFIERS: ModifierSelection = { choices: {}, texts: {} };

/** The product's modifiers, from its v3 reading (shared with the subscription picker's). */
export function useModifiers(product: Product): ConnectedModifier[] {
  const v3 = useProductV3BySlug(product.slug ?? undefined);
  return (v3.data?.modifiers ?? []).filter((modifier) => modifier.name);
}

const textKeyOf = (modifier: ConnectedModifier) =>
  modifier.freeTextSettings?.key ?? modifier.freeTextSettings?.title ?? modifier.name ?? '';

/** The names of the mandatory modifiers the shopper has not picked or written yet. */
export function unchosenModifiers(modifiers: ConnectedModifier[], selection: ModifierSelection): string[] {
  return modifiers
    .filter((modifier) => modifier.mandatory)
    .filter((modifier) =>
      modifier.modifierRenderType === 'FREE_TEXT'
        ? !selection.texts[textKeyOf(modifier)]?.trim()
        : !selection.choices[modifier.name!],
    )
    .map((modifier) => modifier.name!.toLowerCase());
}

/**
 * A cart line reference's `options` with the picked modifiers: choices beside the options that name the
 * variant (`options.options`), texts under `options.customTextFields`.
 */
export function modifierOptions(
  options: Record<string, unknown>,
  selection: ModifierSelection,
): Record<string, unknown> {
  const texts = Object.fromEntries(Object.entries(selection.texts).filter(([, text]) => text.trim()));
  const picked = Object.keys(selection.choices).length > 0;
  if (!picked && Object.keys(texts).length === 0) return options;
  return {
    ...options,
    ...(picked
      ? {
          options: {
            ...((options.options as Record<string, string> | undefined) ?? {}),
            ...selection.choices,
          },
        }
      : {}),
    ...(Object.keys(texts).length > 0 ? { customTextFields: texts } : {}),
  };
}

export function ModifierPicker({
  modifiers,
  currency,
  value,
  onChange,
}: {
  modifiers: ConnectedModifier[];
  currency: string;
  value: ModifierSelection;
  onChange: (next: ModifierSelection) => void;
}) {
  const money = (amount: string | null | undefined) =>
    amount && Number(amount) !== 0
      ? ` (+${new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(Number(amount))})`
      : '';
  return (
    <div className="modifiers" data-testid="modifiers">
      {modifiers.map((modifier) =>
        modifier.modifierRenderType === 'FREE_TEXT' ? (
          <FreeText
            key={modifier.name}
            modifier={modifier}
            price={money(modifier.freeTextSettings?.defaultAddedPrice)}
            value={value.texts[textKeyOf(modifier)] ?? ''}
            onChange={(text) =>
              onChange({ ...value, texts: { ...value.texts, [textKeyOf(modifier)]: text } })
            }
          />
        ) : (
          <fieldset key={modifier.name} className="option">
            <legend className="option__name">
              {modifier.name}
              {modifier.mandatory ? null : <span className="modifier__optional"> (optional)</span>}
            </legend>
            {(modifier.choicesSettings?.choices ?? []).map((choice) => (
              <label key={choice.name} className="subscription-picker__choice">
                <input
                  type="radio"
                  name={`modifier-${modifier.name}`}
                  checked={value.choices[modifier.name!] === choice.name}
                  onChange={() =>
                    onChange({ ...value, choices: { ...value.choices, [modifier.name!]: choice.name ?? '' } })
                  }
                />
                <span>
                  {choice.name}
                  {money(choice.addedPrice)}
                </span>
              </label>
            ))}
          </fieldset>
        ),
      )}
    </div>
  );
}

function FreeText({
  modifier,
  price,
  value,
  onChange,
}: {
  modifier: ConnectedModifier;
  price: string;
  value: string;
  onChange: (text: string) => void;
}) {
  const id = useId();
  const settings = modifier.freeTextSettings;
  return (
    <div className="option">
      <label className="option__name" htmlFor={id}>
        {settings?.title ?? modifier.name}
        {price}
        {modifier.mandatory ? null : <span className="modifier__optional"> (optional)</span>}
      </label>
      <input
        id={id}
        className="modifier__text"
        type="text"
        value={value}
        maxLength={settings?.maxCharCount ?? undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
