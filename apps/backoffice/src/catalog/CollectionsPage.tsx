import { Field } from '@cartwheel/design';
import { useCollections, useDeleteCollection, useSaveCollection } from '@cartwheel/react';
import type { CollectionV2 } from '@cartwheel/sdk';
import { type FormEvent, useEffect, useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { ActionOutcome } from '../components/notices.tsx';
import '../orders/orders.css';

const NAME_MAX = 50;

/** `/admin/collections`: the store's collections, created, renamed and deleted in place. */
export function CollectionsPage() {
  const collections = useCollections({ paging: { limit: 100 } });
  const save = useSaveCollection();
  const [message, setMessage] = useState<string>();
  const [problem, setProblem] = useState<string>();

  useEffect(() => {
    document.title = 'Collections · Cartwheel back office';
  }, []);

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(undefined);
    setProblem(undefined);
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name') ?? '').trim();
    if (name === '') return setProblem('Give the collection a name.');
    if (name.length > NAME_MAX) return setProblem(`A name of at most ${NAME_MAX} characters.`);
    try {
      await save.mutateAsync({ collection: { name } });
      setMessage(`${name} was created.`);
      form.reset();
    } catch (error) {
      setProblem(`It was not created: ${(error as Error).message}. What you typed is still here.`);
    }
  }

  const listed = (collections.data?.items ?? []).filter((collection) => collection.slug !== 'all-products');
  return (
    <>
      <h1>Collections</h1>
      <form className="toolbar panel" onSubmit={create}>
        <Field compact label="New collection name" name="name" maxLength={NAME_MAX} />
        <button className="button button--primary" type="submit" disabled={save.isPending}>
          Create collection
        </button>
      </form>
      <ActionOutcome message={message} problem={problem} />
      {collections.isError ? (
        <ErrorNotice what="the collections" error={collections.error} retry={() => collections.refetch()} />
      ) : collections.isPending ? (
        <p className="muted">Loading collections…</p>
      ) : listed.length === 0 ? (
        <p className="panel">No collections yet. Name one above to group products in the storefront.</p>
      ) : (
        <ul className="collection-list">
          {listed.map((collection) => (
            <CollectionRow key={collection.id} collection={collection} onDone={setMessage} />
          ))}
        </ul>
      )}
    </>
  );
}

function CollectionRow({ collection, onDone }: { collection: CollectionV2; onDone(message: string): void }) {
  const save = useSaveCollection();
  const remove = useDeleteCollection();
  const [name, setName] = useState(collection.name ?? '');
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string>();

  async function rename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(undefined);
    const next = name.trim();
    if (next === '') return setProblem('Give the collection a name.');
    try {
      await save.mutateAsync({ id: collection.id, collection: { name: next } });
      onDone(`${collection.name} was renamed ${next}.`);
    } catch (error) {
      setProblem(`It was not renamed: ${(error as Error).message}.`);
    }
  }

  async function confirmDelete() {
    try {
      await remove.mutateAsync(collection.id ?? '');
      setConfirming(false);
      onDone(`${collection.name} was deleted.`);
    } catch {
      // shown in the dialog, which stays open
    }
  }

  return (
    <li className="panel" data-testid="collection-row">
      <form className="toolbar" onSubmit={rename}>
        <Field
          compact
          label={`Name of ${collection.name}`}
          value={name}
          maxLength={NAME_MAX}
          onChange={(event) => setName(event.target.value)}
        />
        <button className="button" type="submit" disabled={save.isPending}>
          Rename
        </button>
        <span className="muted">
          {collection.assignedProductsCount ?? 0} product{collection.assignedProductsCount === 1 ? '' : 's'}
        </span>
        <ConfirmDialog
          trigger={
            <button className="button button--quiet" type="button">
              Delete {collection.name}
            </button>
          }
          title={`Delete ${collection.name}?`}
          description="Its products stay in the store; only the collection goes."
          confirm="Delete collection"
          busy={remove.isPending}
          error={remove.isError ? `It was not deleted: ${remove.error.message}` : undefined}
          open={confirming}
          onOpenChange={setConfirming}
          onConfirm={confirmDelete}
        />
      </form>
      {problem ? (
        <p className="form-alert" role="alert">
          {problem}
        </p>
      ) : null}
    </li>
  );
}
