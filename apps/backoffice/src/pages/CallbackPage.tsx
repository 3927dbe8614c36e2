import { FormAlert } from '@cartwheel/design';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAdminSession } from '../admin-key.ts';
import { loadClientId } from '../config.ts';
import { finishStaffSignIn } from '../staff-session.ts';

/** `/admin/callback`: the hosted login page's answer becomes the tab's staff session. */
export function CallbackPage() {
  const { staffSignedIn } = useAdminSession();
  const navigate = useNavigate();
  const [failed, setFailed] = useState<string>();
  // a code is exchanged once, though React runs effects twice in development
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void (async () => {
      try {
        const clientId = await loadClientId();
        if (!clientId) throw new Error('The platform did not say which OAuth client the store uses.');
        const returnTo = await finishStaffSignIn(clientId, window.location.href);
        staffSignedIn();
        navigate(returnTo.replace(/^\/admin/, '') || '/', { replace: true });
      } catch (error) {
        setFailed(error instanceof Error ? error.message : String(error));
      }
    })();
  }, [navigate, staffSignedIn]);

  if (!failed) return <p role="status">Signing you in…</p>;
  return (
    <FormAlert>
      <p>The sign-in did not complete: {failed}</p>
      <a href="/admin/orders">Try again</a>
    </FormAlert>
  );
}
