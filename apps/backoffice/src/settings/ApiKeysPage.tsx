import { useApiKeys, useCreateApiKey, usePermissions, useRevokeApiKey } from '@cartwheel/react';
import type { ApiKeyInfo, StaffPermission } from '@cartwheel/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { ChangeError, ConfirmedRowAction, FieldError, formatDate, placeViolations } from './common.tsx';

interface KeyFormValues {
  name: string;
  permissions: StaffPermission[];
  /** `YYYY-MM-DD`, or empty for a key that does not expire. */
  expires: string;
}

/** API keys for the merchant's apps: created with a name, permissions and an optional expiry; revoked. */
export function ApiKeysPage() {
  const keys = useApiKeys();
  const permissions = usePermissions();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [created, setCreated] = useState<{ name: string; key: string }>();
  const [notice, setNotice] = useState<string>();
  const [copied, setCopied] = useState(false);
  const { register, handleSubmit, formState, setError, reset } = useForm<KeyFormValues>({
    defaultValues: { name: '', permissions: [], expires: '' },
  });
  const errors = formState.errors;
  const submit = handleSubmit(async (values) => {
    setNotice(undefined);
    try {
      const answer = await create.mutateAsync({
        name: values.name,
        permissions: values.permissions,
        ...(values.expires ? { expiresDate: new Date(`${values.expires}T23:59:59`).toISOString() } : {}),
      });
      reset();
      setCopied(false);
      setCreated({ name: answer.apiKey.name, key: answer.key });
    } catch (error) {
      placeViolations(error, ['name', 'permissions', 'expiresDate'], (field, message) =>
        setError(field === 'expiresDate' ? 'expires' : (field as keyof KeyFormValues), { message }),
      );
    }
  });
  const copy = async () => {
    if (!created) return;
    await navigator.clipboard.writeText(created.key).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };

  return (
    <>
      <h1>API keys</h1>
      <p className="muted">
        An app sends its key in the <code>Authorization</code> header and may make only the calls its
        permissions name.
      </p>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {created ? (
        <section className="panel key-created" aria-labelledby="key-created-title">
          <h2 id="key-created-title">The key {created.name} was created</h2>
          <p role="status">Copy it now: it is shown this once and cannot be read again.</p>
          <p>
            <label htmlFor="created-key">Key</label>{' '}
            <input
              id="created-key"
              readOnly
              value={created.key}
              size={56}
              onFocus={(e) => e.currentTarget.select()}
            />{' '}
            <button className="button" type="button" onClick={copy}>
              {copied ? 'Copied' : 'Copy key'}
            </button>
          </p>
          <button className="button button--quiet" type="button" onClick={() => setCreated(undefined)}>
            I have saved it
          </button>
        </section>
      ) : null}

      <section className="panel" aria-labelledby="keys-title">
        <h2 id="keys-title">Keys</h2>
        {keys.isError ? (
          <ErrorNotice what="the API keys" error={keys.error} retry={() => keys.refetch()} />
        ) : null}
        {keys.isPending ? <p role="status">Loading the keys…</p> : null}
        {keys.data?.length === 0 ? (
          <p className="muted">No keys yet: create one below for your app.</p>
        ) : null}
        {keys.data?.length ? (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">API keys</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Permissions</th>
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data.map((key) => (
                  <tr key={key.id}>
                    <th scope="row">{key.name}</th>
                    <td>
                      <code>{key.keyPrefix}…</code>
                    </td>
                    <td>{key.permissions.join(', ') || 'none'}</td>
                    <td>{formatDate(key.createdDate)}</td>
                    <td>{key.expiresDate ? formatDate(key.expiresDate) : 'Never'}</td>
                    <td>{key.lastUsedDate ? formatDate(key.lastUsedDate) : 'Never used'}</td>
                    <td>{statusOf(key)}</td>
                    <td>
                      {key.revokedDate ? null : (
                        <ConfirmedRowAction
                          verb="Revoke"
                          name={key.name}
                          title={`Revoke the key ${key.name}?`}
                          description="Apps using it are refused at once. This cannot be undone."
                          confirm="Revoke key"
                          mutation={revoke}
                          variables={key.id}
                          onDone={() => setNotice(`The key ${key.name} was revoked.`)}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>

      <section className="panel" aria-labelledby="new-key-title">
        <h2 id="new-key-title">New key</h2>
        <form onSubmit={submit} noValidate>
          <ChangeError error={create.error} what="Creating the key" />
          <div className="field-row">
            <div className="field">
              <label htmlFor="key-name">Name</label>
              <input
                id="key-name"
                aria-invalid={Boolean(errors.name)}
                aria-describedby={errors.name ? 'key-name-error' : undefined}
                {...register('name', {
                  validate: (value) => value.trim() !== '' || 'Name the key after the app.',
                })}
              />
              <FieldError id="key-name-error" message={errors.name?.message} />
            </div>
            <div className="field">
              <label htmlFor="key-expires">
                Expires on <span className="muted">(optional)</span>
              </label>
              <input
                id="key-expires"
                type="date"
                aria-invalid={Boolean(errors.expires)}
                aria-describedby={errors.expires ? 'key-expires-error' : 'key-expires-hint'}
                {...register('expires')}
              />
              <p className="muted hint" id="key-expires-hint">
                Leave empty for a key that does not expire.
              </p>
              <FieldError id="key-expires-error" message={errors.expires?.message} />
            </div>
          </div>
          <fieldset>
            <legend>
              Permissions <span className="muted">(optional)</span>
            </legend>
            <div className="permission-grid">
              {permissions.data?.map((permission) => (
                <label className="check" key={permission}>
                  <input type="checkbox" value={permission} {...register('permissions')} /> {permission}
                </label>
              ))}
            </div>
            <FieldError id="key-permissions-error" message={errors.permissions?.message} />
          </fieldset>
          {permissions.isError ? (
            <ErrorNotice
              what="the permissions"
              error={permissions.error}
              retry={() => permissions.refetch()}
            />
          ) : null}
          <button className="button button--primary" type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create key'}
          </button>
        </form>
      </section>
    </>
  );
}

function statusOf(key: ApiKeyInfo): string {
  if (key.revokedDate) return `Revoked ${formatDate(key.revokedDate)}`;
  if (key.expiresDate && Date.parse(key.expiresDate) <= Date.now()) return 'Expired';
  return 'Active';
}
