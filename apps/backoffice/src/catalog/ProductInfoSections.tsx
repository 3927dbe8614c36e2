import { CheckboxField, FieldGroup } from '@cartwheel/design';
import { useInfoSectionsV3, useProductV3, useSetProductInfoSection } from '@cartwheel/react';
import type { Product } from '@cartwheel/sdk';
import { useId, useState } from 'react';
import { ActionOutcome } from '../components/notices.tsx';

/**
 * The store's info sections (care, sizing, shipping notes) a product shows under its description, each
 * a checkbox: ticking attaches it at once (after the others), unticking takes it off.
 */
export function ProductInfoSections({ product }: { product: Product }) {
  const sections = useInfoSectionsV3();
  const current = useProductV3(product.id);
  const change = useSetProductInfoSection();
  const [message, setMessage] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const id = useId();
  const attached = new Set((current.data?.infoSections ?? []).map((section) => section.id));

  async function toggle(infoSectionId: string, title: string, next: boolean) {
    setMessage(undefined);
    setProblem(undefined);
    try {
      await change.mutateAsync({ productId: product.id ?? '', infoSectionId, attached: next });
      setMessage(next ? `${title} is shown on the product page.` : `${title} is no longer shown.`);
    } catch (error) {
      setProblem(`${title} was not changed: ${(error as Error).message}.`);
    }
  }

  const error = sections.error ?? current.error;
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Info sections</h2>
      {error ? (
        <p className="form-alert" role="alert">
          The info sections could not be read: {error.message}
        </p>
      ) : sections.isPending || current.isPending ? (
        <p className="muted">Loading info sections…</p>
      ) : (sections.data ?? []).length === 0 ? (
        <p className="muted">No info sections yet: an app or script makes them with the info sections API.</p>
      ) : (
        <FieldGroup legend="Shown on the product page">
          {(sections.data ?? []).map((section) => (
            <CheckboxField
              key={section.id}
              label={section.title}
              hint={section.uniqueName}
              checked={attached.has(section.id)}
              disabled={change.isPending || current.isFetching}
              onChange={(event) => toggle(section.id ?? '', section.title ?? '', event.target.checked)}
            />
          ))}
        </FieldGroup>
      )}
      <ActionOutcome message={message} problem={problem} />
    </section>
  );
}
