import { CheckboxField, Field } from '@cartwheel/design';
import { useInventoryItemsV3, useUpdateInventoryItemV3 } from '@cartwheel/react';
import type { InventoryItemV3, Product } from '@cartwheel/sdk';
import { type FormEvent, useId, useState } from 'react';
import { ActionOutcome } from '../components/notices.tsx';

/**
 * Preorder per variant (its v3 inventory item): while on, a variant out of stock is still sold, up to
 * the limit, and the shopper sees the message.
 */
export function ProductPreorder({ product }: { product: Product }) {
  const items = useInventoryItemsV3(product.id);
  const id = useId();
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Preorder</h2>
      {items.error ? (
        <p className="form-alert" role="alert">
          The inventory could not be read: {items.error.message}
        </p>
      ) : items.isPending ? (
        <p className="muted">Loading inventory…</p>
      ) : (
        (items.data ?? []).map((item) => <PreorderForm key={item.id} item={item} />)
      )}
    </section>
  );
}

function PreorderForm({ item }: { item: InventoryItemV3 }) {
  const update = useUpdateInventoryItemV3();
  const info = item.preorderInfo;
  const [enabled, setEnabled] = useState(info?.enabled ?? false);
  const [message, setMessage] = useState(info?.message ?? '');
  const [limit, setLimit] = useState(info?.limit == null ? '' : String(info.limit));
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const label = item.product?.variantName || item.product?.name || 'This product';

  async function save(event: FormEvent) {
    event.preventDefault();
    setNotice(undefined);
    setProblem(undefined);
    try {
      await update.mutateAsync({
        id: item.id ?? '',
        item: {
          revision: item.revision,
          preorderInfo: {
            enabled,
            message: message.trim() || null,
            limit: limit === '' ? null : Number(limit),
          },
        },
      });
      setNotice(`Preorder saved for ${label}.`);
    } catch (error) {
      setProblem(`Preorder was not saved: ${(error as Error).message}.`);
    }
  }

  return (
    <form onSubmit={save} aria-label={`Preorder of ${label}`}>
      <CheckboxField
        label={`Sell ${label} on preorder when out of stock`}
        checked={enabled}
        onChange={(event) => setEnabled(event.target.checked)}
      />
      <Field label="Preorder message" value={message} onChange={(event) => setMessage(event.target.value)} />
      <Field
        label="Preorder limit"
        hint="Empty: no limit (a limit needs counted stock)"
        type="number"
        min={0}
        value={limit}
        onChange={(event) => setLimit(event.target.value)}
      />
      <div className="form-actions">
        <button className="button" type="submit" disabled={update.isPending}>
          Save preorder
        </button>
      </div>
      <ActionOutcome message={notice} problem={problem} />
    </form>
  );
}
