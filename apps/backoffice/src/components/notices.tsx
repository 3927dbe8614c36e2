import { createContext, type ReactNode, useCallback, useContext, useId, useMemo, useState } from 'react';
import { useLocation } from 'react-router';

interface Notices {
  /** Which notice is the latest action's (a `useNotice` id). */
  latest: string | undefined;
  claim(id: string): void;
}

const NoticesContext = createContext<Notices>({ latest: undefined, claim: () => {} });

/**
 * One action's outcome on screen at a time: a notice shows until the merchant's next action says
 * something, or until they move to another page (an earlier "Captured…" never sits beside a new outcome).
 */
export function NoticeBoard({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  // the page it was said on: on another page, no notice is the latest
  const [latest, setLatest] = useState<{ pathname: string; id: string }>();
  const notices = useMemo(
    () => ({
      latest: latest?.pathname === pathname ? latest.id : undefined,
      claim: (id: string) => setLatest({ pathname, id }),
    }),
    [latest, pathname],
  );
  return <NoticesContext.Provider value={notices}>{children}</NoticesContext.Provider>;
}

/**
 * An action's notice (`useState` for a confirmation): `[text shown, set]`, the text only while it is
 * the latest one on the page.
 */
export function useNotice(): [string | undefined, (text: string | undefined) => void] {
  const id = useId();
  const { latest, claim } = useContext(NoticesContext);
  const [text, setText] = useState<string>();
  const set = useCallback(
    (next: string | undefined) => {
      setText(next);
      if (next) claim(id);
    },
    [claim, id],
  );
  return [latest === id ? text : undefined, set];
}

/**
 * What an editor's last action came to: its confirmation (a polite status) or its problem (an alert),
 * each shown only while there is one.
 */
export function ActionOutcome({
  message,
  problem,
}: {
  message?: string | undefined;
  problem?: string | undefined;
}) {
  return (
    <>
      {message ? (
        <p className="notice" role="status">
          {message}
        </p>
      ) : null}
      {problem ? (
        <p className="form-alert" role="alert">
          {problem}
        </p>
      ) : null}
    </>
  );
}
