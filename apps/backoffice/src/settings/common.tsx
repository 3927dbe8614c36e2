import { ValidationError } from '@cartwheel/sdk';
import { useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import './settings.css';
import { NavLink, Outlet } from 'react-router';

/** A field's error beside it (the client's own check, or the platform's field violation): the form kit's. */
export { FieldError } from '@cartwheel/design';

/**
 * Hands each of the platform's field violations to `show` under the form field it names (the path's
 * last part: `role.name` is `name`); answers whether any was placed, else the error is shown whole.
 */
export function placeViolations(
  error: unknown,
  fields: readonly string[],
  show: (field: string, message: string) => void,
) {
  if (!(error instanceof ValidationError)) return false;
  let placed = false;
  for (const violation of error.fieldViolations) {
    const field = fields.find((name) => violation.field === name || violation.field.endsWith(`.${name}`));
    if (field) {
      show(field, violation.description);
      placed = true;
    }
  }
  return placed;
}

/** Why a change was refused, for errors no field explains; what was typed stays in the form. */
export function ChangeError({ error, what }: { error: unknown; what: string }) {
  if (!error || (error instanceof ValidationError && error.fieldViolations.length > 0)) return null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <p className="alert" role="alert">
      {what} failed: {message}. What you typed is still here; try again.
    </p>
  );
}

const PAGES = [
  { path: 'staff', name: 'Staff and roles' },
  { path: 'api-keys', name: 'API keys' },
  { path: 'audit-log', name: 'Audit log' },
  { path: 'payments', name: 'Payments' },
  { path: 'store', name: 'Store' },
  { path: 'shipping', name: 'Shipping' },
  { path: 'taxes', name: 'Taxes' },
  { path: 'coupons', name: 'Coupons' },
];

/** Settings: one page per subject, named in a side menu. */
export function SettingsLayout() {
  return (
    <div className="settings">
      <nav aria-label="Settings" className="settings__nav">
        <ul>
          {PAGES.map((page) => (
            <li key={page.path}>
              <NavLink to={`/settings/${page.path}`}>{page.name}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="settings__page">
        <Outlet />
      </div>
    </div>
  );
}

export const formatDate = (value: string | null) => (value ? new Date(value).toLocaleString() : '—');

/** What `ConfirmedRowAction` needs of the page's mutation (TanStack's `useMutation` result). */
interface RowMutation<V> {
  isPending: boolean;
  error: Error | null;
  reset(): void;
  mutate(variables: V, options: { onSuccess: () => void }): void;
}

/**
 * A row's destructive action (delete, revoke) behind a confirming dialog. The page's one mutation
 * serves every row; this row's dialog shows its error and stays open on a refusal, and closes, telling
 * `onDone`, when the platform did it.
 */
export function ConfirmedRowAction<V>(props: {
  /** The button's word ("Delete"); `name` follows it for screen readers. */
  verb: string;
  name: string;
  title: string;
  description: string;
  confirm: string;
  mutation: RowMutation<V>;
  variables: V;
  onDone(): void;
}) {
  const [open, setOpen] = useState(false);
  const { mutation } = props;
  return (
    <ConfirmDialog
      trigger={
        <button className="button button--quiet" type="button">
          {props.verb} <span className="visually-hidden">{props.name}</span>
        </button>
      }
      title={props.title}
      description={props.description}
      confirm={props.confirm}
      busy={mutation.isPending}
      error={open && mutation.error ? mutation.error.message : undefined}
      open={open}
      onOpenChange={(next) => {
        mutation.reset();
        setOpen(next);
      }}
      onConfirm={() =>
        mutation.mutate(props.variables, {
          onSuccess: () => {
            setOpen(false);
            props.onDone();
          },
        })
      }
    />
  );
}
