import { useEffect, useRef } from 'react';

/**
 * Where focus goes after a confirmed action whose success removes the button that opened its dialog
 * (a captured payment's Capture, a deleted comment's Delete): to the confirmation the page shows, never
 * to the page's body. The dialog may close before the action answers (the refetched page no longer
 * holds it) or after; either way the confirmation gets the focus once it shows.
 */
export function useConfirmationFocus(done: unknown) {
  const notice = useRef<HTMLParagraphElement>(null);
  // the merchant confirmed an action and has not opened another dialog since
  const confirmed = useRef(false);
  useEffect(() => {
    if (done && confirmed.current) notice.current?.focus();
  }, [done]);
  return {
    /** The confirmation's element (given `tabIndex={-1}`). */
    notice,
    /** The merchant pressed the dialog's action. */
    confirm: () => {
      confirmed.current = true;
    },
    /** A dialog opened again, or the action failed (its dialog stays open, the focus in it). */
    reset: () => {
      confirmed.current = false;
    },
    /** The dialog's `onCloseAutoFocus`: Radix would focus the opening button, which may be gone. */
    onCloseAutoFocus: (event: Event) => {
      if (!confirmed.current) return;
      event.preventDefault();
      notice.current?.focus();
    },
  };
}
