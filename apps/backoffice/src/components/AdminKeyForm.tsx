import { Field, FormAlert } from '@cartwheel/design';
import { type FormEvent, useId, useState } from 'react';
import { useAdminSession } from '../admin-key.ts';

/**
 * Asks once for the admin API key the platform printed at its first start. `secondary`: beside the
 * staff sign-in, as the developer's way in (a quieter panel and button).
 */
export function AdminKeyForm({
  refused,
  secondary = false,
}: {
  refused?: string | undefined;
  secondary?: boolean;
}) {
  const { signIn } = useAdminSession();
  const [key, setKey] = useState('');
  const [missing, setMissing] = useState(false);
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!key.trim()) {
      setMissing(true);
      return;
    }
    signIn(key.trim());
  }

  const error = missing ? 'Enter the admin API key.' : refused;
  return (
    <section
      className={secondary ? 'panel panel--narrow panel--secondary' : 'panel panel--narrow'}
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`}>
        {secondary ? 'Developers: the admin API key' : 'Sign in with the admin API key'}
      </h2>
      <p className="muted">
        The platform printed it at its first start (or it is the <code>CARTWHEEL_ADMIN_API_KEY</code> you
        set). It is kept for this tab only.
      </p>
      <FormAlert>{error}</FormAlert>
      <form className="form" onSubmit={submit} noValidate>
        <Field
          label="Admin API key"
          name="adminApiKey"
          type="password"
          autoComplete="off"
          spellCheck={false}
          invalid={Boolean(error)}
          value={key}
          onChange={(event) => setKey(event.target.value)}
        />
        <button className={secondary ? 'button' : 'button button--primary'} type="submit">
          Sign in
        </button>
      </form>
    </section>
  );
}
