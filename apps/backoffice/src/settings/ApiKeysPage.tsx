import { Field, SubmitButton } from '@cartwheel/design';
import { useApiKeys, useCreateApiKey, usePermissions, useRevokeApiKey } from '@cartwheel/react';
import type { ApiKeyInfo, StaffPermission } from '@cartwheel/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import {
  ChangeError,
  filledIn,
  formatDate,
  Notice,
  PermissionChecks,
  placeViolations,
  RecordList,
} from './common.tsx';

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
      <Notice>{notice}</Notice>
      {created ? (
        <section className="panel key-created" aria-labelledby="key-created-title">
          <h2 id="key-created-title">The key {created.name} was created</h2>
          <p role="status">Copy it now: it is shown this once and cannot be read again.</p>
          <div className="key-created__key">
            <Field
              compact
              label="Key"
              readOnly
              value={created.key}
              size={56}
              onFocus={(e) => e.currentTarget.select()}
            />
            <button className="button" type="button" onClick={copy}>
              {copied ? 'Copied' : 'Copy key'}
            </button>
          </div>
          <button className="button button--quiet" type="button" onClick={() => setCreated(undefined)}>
            I have saved it
          </button>
        </section>
      ) : null}

      <RecordList
        title="Keys"
        caption="API keys"
        query={keys}
        what="the API keys"
        empty="No keys yet: create one below for your app."
        nameHeader="Name"
        nameOf={(key) => key.name}
        columns={[
          { header: 'Key', cell: (key) => <code>{key.keyPrefix}…</code> },
          { header: 'Permissions', cell: (key) => key.permissions.join(', ') || 'none' },
          { header: 'Created', cell: (key) => formatDate(key.createdDate) },
          { header: 'Expires', cell: (key) => (key.expiresDate ? formatDate(key.expiresDate) : 'Never') },
          {
            header: 'Last used',
            cell: (key) => (key.lastUsedDate ? formatDate(key.lastUsedDate) : 'Never used'),
          },
          { header: 'Status', cell: statusOf },
        ]}
        remove={{
          verb: 'Revoke',
          mutation: revoke,
          variables: (key) => key.id,
          title: (key) => `Revoke the key ${key.name}?`,
          description: 'Apps using it are refused at once. This cannot be undone.',
          confirm: 'Revoke key',
          done: (key) => setNotice(`The key ${key.name} was revoked.`),
          offered: (key) => !key.revokedDate,
        }}
      />

      <section className="panel" aria-labelledby="new-key-title">
        <h2 id="new-key-title">New key</h2>
        <form onSubmit={submit} noValidate>
          <ChangeError error={create.error} what="Creating the key" />
          <div className="field-row">
            <Field
              label="Name"
              announce
              error={errors.name?.message}
              {...register('name', {
                validate: filledIn('Name the key after the app.'),
              })}
            />
            <Field
              label="Expires on"
              optional
              type="date"
              hint="Leave empty for a key that does not expire."
              announce
              error={errors.expires?.message}
              {...register('expires')}
            />
          </div>
          <PermissionChecks
            permissions={permissions.data}
            registration={register('permissions')}
            error={errors.permissions?.message}
          />
          {permissions.isError ? (
            <ErrorNotice
              what="the permissions"
              error={permissions.error}
              retry={() => permissions.refetch()}
            />
          ) : null}
          <SubmitButton pending={create.isPending} pendingText="Creating…">
            Create key
          </SubmitButton>
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
