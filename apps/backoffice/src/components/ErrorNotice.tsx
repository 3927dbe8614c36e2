import { FormAlert } from '@cartwheel/design';
import { useAdminSession } from '../admin-key.ts';

/** Why a read failed, with a way to try again; a refused key signs the back office out. */
export function ErrorNotice({ what, error, retry }: { what: string; error: unknown; retry: () => void }) {
  const { signOut } = useAdminSession();
  const status = (error as { status?: number } | null)?.status;
  const refused = status === 401 || status === 403;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <FormAlert>
      <p>
        We couldn't load {what}. {refused ? 'The platform no longer accepts this key.' : message}
      </p>
      {refused ? (
        <button className="button" type="button" onClick={signOut}>
          Sign in again
        </button>
      ) : (
        <button className="button" type="button" onClick={retry}>
          Try again
        </button>
      )}
    </FormAlert>
  );
}
