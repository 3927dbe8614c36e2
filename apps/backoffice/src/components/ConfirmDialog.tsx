import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import './dialog.css';

/**
 * An accessible confirmation (Radix Dialog: focus kept inside, Escape closes, focus returns to the
 * button that opened it). `children` holds the choices the action takes; the action's own button
 * confirms, as Enter in one of its fields does (the dialog is a form), and its error shows inside the
 * dialog, which stays open.
 */
export function ConfirmDialog(props: {
  trigger: ReactNode;
  title: string;
  description: string;
  confirm: string;
  busy: boolean;
  error?: string | undefined;
  open: boolean;
  onOpenChange(open: boolean): void;
  onConfirm(): void;
  /** Where focus goes on closing, when the button that opened it is gone (the action removed it). */
  onCloseAutoFocus?(event: Event): void;
  children?: ReactNode;
}) {
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <Dialog.Trigger asChild>{props.trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" onCloseAutoFocus={props.onCloseAutoFocus}>
          <Dialog.Title>{props.title}</Dialog.Title>
          <Dialog.Description className="muted">{props.description}</Dialog.Description>
          <form
            className="dialog__form"
            onSubmit={(event) => {
              event.preventDefault();
              // React carries a submit up through the portal: a form around the trigger must not hear it
              event.stopPropagation();
              if (!props.busy) props.onConfirm();
            }}
          >
            {props.children}
            {props.error ? (
              <p className="form-alert" role="alert">
                {props.error}
              </p>
            ) : null}
            <div className="dialog__actions">
              <Dialog.Close asChild>
                <button className="button button--quiet" type="button">
                  Keep it
                </button>
              </Dialog.Close>
              <button className="button button--primary" type="submit" disabled={props.busy}>
                {props.busy ? 'Working…' : props.confirm}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
