import { CheckboxField, FieldGroup } from '@cartwheel/design';
import { useCollections, useSetProductInCollection } from '@cartwheel/react';
import type { Product } from '@cartwheel/sdk';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ActionOutcome } from '../components/notices.tsx';

/** The collections a product is in, each a checkbox: ticking adds it at once, unticking removes it. */
export function ProductCollections({ product }: { product: Product }) {
  const collections = useCollections({ paging: { limit: 100 } });
  const change = useSetProductInCollection();
  const [message, setMessage] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const id = useId();
  const member = new Set(product.collectionIds ?? []);
  // what the merchant ticked shows at once; a refused change puts the box back
  const [wanted, setWanted] = useState<Record<string, boolean>>({});

  async function toggle(collectionId: string, name: string, next: boolean) {
    setMessage(undefined);
    setProblem(undefined);
    setWanted((current) => ({ ...current, [collectionId]: next }));
    try {
      await change.mutateAsync({ productId: product.id ?? '', collectionId, member: next });
      setMessage(next ? `Added to ${name}.` : `Removed from ${name}.`);
    } catch (error) {
      setWanted((current) => ({ ...current, [collectionId]: !next }));
      setProblem(`${name} was not changed: ${(error as Error).message}.`);
    }
  }

  // the store's "All Products" collection holds every product by itself
  const listed = (collections.data?.items ?? []).filter((collection) => collection.slug !== 'all-products');
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Collections</h2>
      {collections.isError ? (
        <p className="form-alert" role="alert">
          The collections could not be read: {collections.error.message}
        </p>
      ) : collections.isPending ? (
        <p className="muted">Loading collections…</p>
      ) : listed.length === 0 ? (
        <p className="muted">
          No collections yet. <Link to="/collections">Create one</Link> to group products.
        </p>
      ) : (
        <FieldGroup legend="In these collections">
          {listed.map((collection) => (
            <CheckboxField
              key={collection.id}
              label={collection.name}
              checked={wanted[collection.id ?? ''] ?? member.has(collection.id ?? '')}
              disabled={change.isPending}
              onChange={(event) => toggle(collection.id ?? '', collection.name ?? '', event.target.checked)}
            />
          ))}
        </FieldGroup>
      )}
      <ActionOutcome message={message} problem={problem} />
    </section>
  );
}
