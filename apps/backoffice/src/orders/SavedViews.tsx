import { Field } from '@cartwheel/design';
import { useDeleteOrderView, useOrderViews, useSaveOrderView } from '@cartwheel/react';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { VIEW_PARAMS } from './search.ts';

/** The view's parameters as a saved view keeps them: only the table's own, only those set. */
function paramsOf(params: URLSearchParams): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of VIEW_PARAMS) {
    const value = params.get(name);
    if (value) kept[name] = value;
  }
  return kept;
}

/**
 * The views staff saved of the orders table, shared by all of them, listed above it: each opens the
 * table with its filters; the current filters can be saved under a name (a name saved again is replaced).
 */
export function SavedViews() {
  const [params] = useSearchParams();
  const views = useOrderViews();
  const save = useSaveOrderView();
  const remove = useDeleteOrderView();
  const [saved, setSaved] = useState<string>();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name') ?? '').trim();
    if (!name) return;
    setSaved(undefined);
    try {
      await save.mutateAsync({ name, params: paramsOf(params) });
      setSaved(`Saved the view "${name}".`);
      form.reset();
    } catch {
      // shown below
    }
  }

  return (
    <section className="saved-views" aria-label="Saved views">
      {views.data && views.data.length > 0 ? (
        <nav aria-label="Saved views of orders">
          <ul className="saved-views__list">
            {views.data.map((view) => (
              <li key={view.id}>
                <Link to={`/orders?${new URLSearchParams(view.params).toString()}`}>{view.name}</Link>{' '}
                <button
                  className="button button--quiet"
                  type="button"
                  aria-label={`Delete the view ${view.name}`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(view.id)}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        </nav>
      ) : views.isError ? (
        // the table below says why (a key no longer accepted, the platform away) and offers what to do
        <p className="muted">The saved views could not be read: {views.error.message}</p>
      ) : null}
      <form className="toolbar" onSubmit={submit}>
        <Field
          compact
          label="Save these filters as"
          name="name"
          maxLength={100}
          required
          autoComplete="off"
        />
        <button className="button" type="submit" disabled={save.isPending}>
          Save view
        </button>
      </form>
      {saved ? <p role="status">{saved}</p> : null}
      {save.error ? (
        <p className="form-alert" role="alert">
          The view was not saved: {save.error.message}
        </p>
      ) : null}
      {remove.error ? (
        <p className="form-alert" role="alert">
          The view was not deleted: {remove.error.message}
        </p>
      ) : null}
    </section>
  );
}
