import { CheckboxField, Field, FieldError, FieldGroup, FormAlert, SubmitButton } from '@cartwheel/design';
import { type StaffPermission, ValidationError } from '@cartwheel/sdk';
import { type FormEventHandler, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { type DefaultValues, type FieldValues, type UseFormRegisterReturn, useForm } from 'react-hook-form';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import './settings.css';
import { NavLink, Outlet } from 'react-router';

/** A field's error beside it (the client's own check, or the platform's field violation): the form kit's. */
export { FieldError };

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
    <FormAlert>
      {what} failed: {message}. What you typed is still here; try again.
    </FormAlert>
  );
}

/** What a change did, said once it is done; nothing before. */
export function Notice({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p className="notice" role="status">
      {children}
    </p>
  );
}

const PAGES = [
  { path: 'staff', name: 'Staff and roles' },
  { path: 'sign-in', name: 'Sign-in' },
  { path: 'api-keys', name: 'API keys' },
  { path: 'audit-log', name: 'Audit log' },
  { path: 'payments', name: 'Payments' },
  { path: 'store', name: 'Store' },
  { path: 'shipping', name: 'Shipping' },
  { path: 'taxes', name: 'Taxes' },
  { path: 'coupons', name: 'Coupons' },
  { path: 'discount-rules', name: 'Discount rules' },
  { path: 'pickup-locations', name: 'Pickup locations' },
  { path: 'checkout-brand', name: 'Checkout brand' },
  { path: 'checkout-templates', name: 'Checkout templates' },
  { path: 'abandoned-checkouts', name: 'Abandoned checkouts' },
  { path: 'back-in-stock', name: 'Back-in-stock requests' },
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

/** A country as the platform takes it: its two-letter ISO code (the form's check mirrors the server's). */
const countryCode = (value: string) => /^[A-Za-z]{2}$/.test(value.trim()) || 'Two letters, like US.';

/**
 * Where a record is (a tax region, a pickup location): its country's code, the form's `country`
 * (React Hook Form's `register`), checked as the platform will.
 */
export function CountryField({
  register,
  error,
}: {
  register(name: 'country', options: { validate: typeof countryCode }): UseFormRegisterReturn;
  error: string | undefined;
}) {
  return (
    <Field
      label="Country code"
      maxLength={2}
      announce
      error={error}
      {...register('country', { validate: countryCode })}
    />
  );
}

/** A field's check that something was typed (not only spaces); `message` says what, as the platform would. */
export const filledIn = (message: string) => (value: string) => value.trim() !== '' || message;

export const formatDate = (value: string | null) => (value ? new Date(value).toLocaleString() : '—');

/** A `datetime-local` input's value for a moment, in the merchant's own time zone; empty for none. */
export function localInputOf(moment: Date | string | undefined | null): string {
  if (!moment) return '';
  const date = new Date(moment);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** The moment a `datetime-local` input names, as the wire writes it; null for an empty input. */
export const isoOfLocalInput = (local: string) => (local ? new Date(local).toISOString() : null);

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

/**
 * A settings page's one form, which adds a record or, once a row's Edit was pressed, changes that one.
 * Every settings list edits this way: the form takes the row's values, its heading says what is being
 * edited (and takes the focus, so a keyboard or screen reader user lands on it), and Cancel goes back to
 * adding. What the merchant typed stays when the platform refuses it.
 */
export interface SettingFormProps {
  /** The name of the record being edited, or undefined while the form adds one. */
  editing: string | undefined;
  /** The heading while adding ("Add a tax region") and the add button's words ("Add tax region"). */
  addTitle: string;
  addLabel: string;
  /** What a record is called ("tax region"), for "Save tax region" and the error. */
  noun: string;
  busy: boolean;
  error: unknown;
  onSubmit: FormEventHandler<HTMLFormElement>;
  onCancel(): void;
  children: ReactNode;
}

export function SettingForm(props: SettingFormProps) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const { editing } = props;
  useEffect(() => {
    if (editing !== undefined) heading.current?.focus();
  }, [editing]);
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {editing === undefined ? props.addTitle : `Edit ${editing}`}
      </h2>
      <form onSubmit={props.onSubmit} noValidate>
        <ChangeError
          error={props.error}
          what={editing === undefined ? `Adding the ${props.noun}` : 'Saving'}
        />
        {props.children}
        <p className="row-actions">
          <SubmitButton pending={props.busy} pendingText="Saving…">
            {editing === undefined ? props.addLabel : `Save ${props.noun}`}
          </SubmitButton>
          {editing === undefined ? null : (
            <button className="button" type="button" onClick={props.onCancel}>
              Cancel editing
            </button>
          )}
        </p>
      </form>
    </section>
  );
}

/** A row's Edit button: puts the row into the page's `SettingForm`. */
export function EditRowButton({ name, onEdit }: { name: string; onEdit(): void }) {
  return (
    <button className="button button--quiet" type="button" onClick={onEdit}>
      Edit <span className="visually-hidden">{name}</span>
    </button>
  );
}

/** Which record a page's `SettingForm` edits, as `useEditing` keeps it. */
export interface Editing<R> {
  id: string | undefined;
  record: R | undefined;
  start(record: R): void;
  stop(): void;
}

/**
 * Which record a page's `SettingForm` edits: `start(record)` fills the form with it (`valuesOf`), `stop()`
 * empties it for adding again. `id` is undefined while adding.
 */
export function useEditing<R extends { id: string }, V>(
  reset: (values: V) => void,
  empty: V,
  valuesOf: (record: R) => V,
): Editing<R> {
  const [record, setRecord] = useState<R>();
  return {
    id: record?.id,
    record,
    start(next: R) {
      setRecord(next);
      reset(valuesOf(next));
    },
    stop() {
      setRecord(undefined);
      reset(empty);
    },
  };
}

/** What `RecordList` needs of the page's list query (TanStack's `useQuery` result). */
interface ListQuery<R> {
  isError: boolean;
  error: unknown;
  isPending: boolean;
  data: readonly R[] | undefined;
  refetch(): unknown;
}

/** A column after the row's name: its heading and each row's cell. */
export interface RecordColumn<R> {
  header: string;
  cell(record: R): ReactNode;
}

/**
 * A settings page's list of records in its panel: a table headed by each record's name, a row's own
 * actions, Edit (into the page's `SettingForm`, through `useEditing`) and a delete (or revoke) behind a
 * confirming dialog; while loading, a line saying so; with no record, `empty`, which says what to do next.
 */
export interface RecordListProps<R extends { id: string }, V = string> {
  /** The panel's heading, and the table's caption unless `caption` names it. */
  title: string;
  caption?: string;
  query: ListQuery<R>;
  /** What the list holds ("the tax regions"), for the loading line and a failed load. */
  what: string;
  /** Said when there is no record yet: what that means and what to do. */
  empty: ReactNode;
  /** The first column's heading ("Region"): each row is headed by `nameOf` its record. */
  nameHeader: string;
  nameOf(record: R): string;
  columns: ReadonlyArray<RecordColumn<R>>;
  /** A row's own actions, before Edit and the delete. */
  actions?(record: R): ReactNode;
  /** The page's `useEditing`: each row gets an Edit button. */
  editing?: Editing<R> | undefined;
  /** Each row's delete behind a confirming dialog; a deleted row being edited stops being edited. */
  remove?: {
    /** The button's word; "Delete" unless named. */
    verb?: string;
    mutation: RowMutation<V>;
    /** What the mutation takes for a row; the record's id unless said. */
    variables?(record: R): V;
    title(record: R): string;
    description: string;
    confirm: string;
    /** Told once the platform did it (the page says so). */
    done(record: R): void;
    /** Whether a row offers it (a revoked key is not revoked again); every row unless said. */
    offered?(record: R): boolean;
  };
  /** Shown in the panel after the list. */
  children?: ReactNode;
}

export function RecordList<R extends { id: string }, V = string>(props: RecordListProps<R, V>) {
  const titleId = useId();
  const { query, editing, remove } = props;
  const hasActions = Boolean(props.actions || editing || remove);
  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>{props.title}</h2>
      {query.isError ? (
        <ErrorNotice what={props.what} error={query.error} retry={() => query.refetch()} />
      ) : null}
      {query.isPending && !query.isError ? <p role="status">Loading {props.what}…</p> : null}
      {query.data?.length === 0 ? <p className="muted">{props.empty}</p> : null}
      {query.data?.length ? (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">{props.caption ?? props.title}</caption>
            <thead>
              <tr>
                <th scope="col">{props.nameHeader}</th>
                {props.columns.map((column) => (
                  <th scope="col" key={column.header}>
                    {column.header}
                  </th>
                ))}
                {hasActions ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {query.data.map((record) => {
                const name = props.nameOf(record);
                return (
                  <tr key={record.id}>
                    <th scope="row">{name}</th>
                    {props.columns.map((column) => (
                      <td key={column.header}>{column.cell(record)}</td>
                    ))}
                    {hasActions ? (
                      <td>
                        <div className="row-actions">
                          {props.actions?.(record)}
                          {editing ? (
                            <EditRowButton name={name} onEdit={() => editing.start(record)} />
                          ) : null}
                          {remove && (remove.offered?.(record) ?? true) ? (
                            <ConfirmedRowAction
                              verb={remove.verb ?? 'Delete'}
                              name={name}
                              title={remove.title(record)}
                              description={remove.description}
                              confirm={remove.confirm}
                              mutation={remove.mutation}
                              variables={remove.variables ? remove.variables(record) : (record.id as V)}
                              onDone={() => {
                                if (editing?.id === record.id) editing.stop();
                                remove.done(record);
                              }}
                            />
                          ) : null}
                        </div>
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {props.children}
    </section>
  );
}

/**
 * The permissions a role or an API key holds, a checkbox each (React Hook Form's one `registration`
 * for the array), with the platform's refusal under them.
 */
export function PermissionChecks({
  permissions,
  registration,
  error,
}: {
  permissions: readonly StaffPermission[] | undefined;
  registration: UseFormRegisterReturn;
  error: string | undefined;
}) {
  return (
    <FieldGroup legend="Permissions" optional error={error} announce>
      <div className="permission-grid">
        {permissions?.map((permission) => (
          <CheckboxField key={permission} label={permission} value={permission} {...registration} />
        ))}
      </div>
    </FieldGroup>
  );
}

/**
 * What a list page keeps: the form (React Hook Form, starting `empty`), which record it edits
 * (`useEditing`, filled by `valuesOf`) and the notice saying what the last change did.
 */
export function useSettingList<R extends { id: string }, F extends FieldValues>(
  empty: F,
  valuesOf: (record: R) => F,
) {
  const [notice, setNotice] = useState<string>();
  const form = useForm<F>({ defaultValues: empty as DefaultValues<F> });
  const editing = useEditing<R, F>(form.reset, empty, valuesOf);
  return { notice, setNotice, form, editing, errors: form.formState.errors };
}

/**
 * A settings page that lists records and edits them: its heading, the notice of the last change, the
 * `RecordList` (Edit fills the form; delete behind a confirmation; an empty state saying what to do)
 * and the one `SettingForm` below it, whose fields are the children.
 */
export function SettingListPage<R extends { id: string }, V = string>({
  heading,
  notice,
  editing,
  form,
  children,
  ...list
}: Omit<RecordListProps<R, V>, 'editing' | 'children'> & {
  /** The page's h1. */
  heading: string;
  notice: ReactNode;
  editing: Editing<R>;
  form: Omit<SettingFormProps, 'editing' | 'onCancel' | 'children'>;
  children: ReactNode;
}) {
  return (
    <>
      <h1>{heading}</h1>
      <Notice>{notice}</Notice>
      <RecordList {...list} editing={editing} />
      <SettingForm
        {...form}
        editing={editing.record ? list.nameOf(editing.record) : undefined}
        onCancel={editing.stop}
      >
        {children}
      </SettingForm>
    </>
  );
}

/**
 * A settings page that edits one settings object: its heading, a line while it loads, why it failed
 * to load (with a retry), and then the page's form for it (`children`, given the loaded value).
 */
export function SettingsObjectPage<T>(props: {
  heading: string;
  query: { isError: boolean; error: unknown; isPending: boolean; data: T | undefined; refetch(): unknown };
  /** What is loaded ("the store settings"), for the loading line and a failed load. */
  what: string;
  children(data: T): ReactNode;
}) {
  const { query } = props;
  return (
    <>
      <h1>{props.heading}</h1>
      {query.isError ? (
        <ErrorNotice what={props.what} error={query.error} retry={() => query.refetch()} />
      ) : null}
      {query.isPending && !query.isError ? <p role="status">Loading {props.what}…</p> : null}
      {query.data === undefined ? null : props.children(query.data)}
    </>
  );
}
