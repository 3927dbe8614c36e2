import { CheckboxField, Field, FieldGroup, TextAreaField } from '@cartwheel/design';
import { useProductV3, useSetProductModifiers } from '@cartwheel/react';
import type { ConnectedModifier, Product } from '@cartwheel/sdk';
import { type FormEvent, useId, useState } from 'react';
import { ActionOutcome } from '../components/notices.tsx';

/**
 * A product's modifiers: what a shopper adds to a line without picking another variant (gift wrap, a
 * finish), each choice with the price it adds. Added one at a time, removed with a button; each change
 * is saved through `productsV3` at once.
 */
export function ProductModifiers({ product }: { product: Product }) {
  const current = useProductV3(product.id);
  const change = useSetProductModifiers();
  const [message, setMessage] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [name, setName] = useState('');
  const [choices, setChoices] = useState('');
  const [mandatory, setMandatory] = useState(false);
  const id = useId();
  const modifiers = current.data?.modifiers ?? [];

  async function save(next: ConnectedModifier[], done: string) {
    setMessage(undefined);
    setProblem(undefined);
    try {
      await change.mutateAsync({ productId: product.id ?? '', modifiers: next });
      setMessage(done);
      return true;
    } catch (error) {
      setProblem(`The modifiers were not saved: ${(error as Error).message}.`);
      return false;
    }
  }

  async function add(event: FormEvent) {
    event.preventDefault();
    // one choice a line: "Red, 2.50" (the price it adds, none: free)
    const parsed = choices
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => {
        const [choiceName = '', price = ''] = line.split(',').map((part) => part.trim());
        return { choiceType: 'CHOICE_TEXT' as const, name: choiceName, addedPrice: price || '0' };
      });
    const added: ConnectedModifier = {
      name: name.trim(),
      modifierRenderType: 'TEXT_CHOICES',
      mandatory,
      choicesSettings: { choices: parsed },
    };
    if (await save([...modifiers.map(keep), added], `${added.name} is offered with the product.`)) {
      setName('');
      setChoices('');
      setMandatory(false);
    }
  }

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Modifiers</h2>
      {current.error ? (
        <p className="form-alert" role="alert">
          The modifiers could not be read: {current.error.message}
        </p>
      ) : modifiers.length === 0 ? (
        <p className="muted">No modifiers: shoppers buy the variant as it is.</p>
      ) : (
        <ul className="modifier-list" aria-label="Modifiers">
          {modifiers.map((modifier) => (
            <li key={modifier.id ?? modifier.name}>
              <strong>{modifier.name}</strong>
              {modifier.mandatory ? ' (required)' : ''}:{' '}
              {(modifier.choicesSettings?.choices ?? [])
                .map((choice) =>
                  Number(choice.addedPrice ?? 0) > 0 ? `${choice.name} +${choice.addedPrice}` : choice.name,
                )
                .join(', ') || modifier.freeTextSettings?.title}{' '}
              <button
                type="button"
                className="button button--small"
                disabled={change.isPending}
                onClick={() =>
                  save(
                    modifiers.filter((other) => other !== modifier).map(keep),
                    `${modifier.name} is no longer offered.`,
                  )
                }
              >
                Remove {modifier.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={add} aria-label="Add a modifier">
        <FieldGroup legend="Add a modifier">
          <Field
            label="Modifier name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            required
          />
          <TextAreaField
            label="Modifier choices"
            hint="One a line: the choice, then a comma and the price it adds (Gift box, 4.50)"
            value={choices}
            onChange={(event) => setChoices(event.target.value)}
            required
          />
          <CheckboxField
            label="The shopper must choose one"
            checked={mandatory}
            onChange={(event) => setMandatory(event.target.checked)}
          />
        </FieldGroup>
        <div className="form-actions">
          <button className="button" type="submit" disabled={change.isPending}>
            Add modifier
          </button>
        </div>
      </form>
      <ActionOutcome message={message} problem={problem} />
    </section>
  );
}

/**
 * A modifier as read, written back as it is (what the platform computes left out); its id and its
 * choices' ids kept, so one that is an assigned customization stays it.
 */
function keep(modifier: ConnectedModifier): ConnectedModifier {
  return {
    ...(modifier.id ? { id: modifier.id } : {}),
    name: modifier.name,
    modifierRenderType: modifier.modifierRenderType,
    mandatory: modifier.mandatory,
    ...(modifier.freeTextSettings
      ? {
          freeTextSettings: {
            title: modifier.freeTextSettings.title,
            minCharCount: modifier.freeTextSettings.minCharCount,
            maxCharCount: modifier.freeTextSettings.maxCharCount,
            defaultAddedPrice: modifier.freeTextSettings.defaultAddedPrice,
          },
        }
      : {
          choicesSettings: {
            choices: (modifier.choicesSettings?.choices ?? []).map((choice) => ({
              ...(choice.choiceId ? { choiceId: choice.choiceId } : {}),
              choiceType: choice.choiceType,
              name: choice.name,
              addedPrice: choice.addedPrice,
              ...(choice.colorCode ? { colorCode: choice.colorCode } : {}),
            })),
          },
        }),
  };
}
