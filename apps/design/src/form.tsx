import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from 'react';

/**
 * Cartwheel's one form kit (its look is form.css, part of base.css), for the storefront, the hosted pages and the back office. The pieces take
 * plain props, so a page keeps its state in React state or in React Hook Form (`{...register('email')}`
 * spreads onto a `Field`, whose `ref` reaches the input) and gets the same labels and error wiring.
 */

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: ReactNode;
  /** A line under the label saying what to type; tied to the input with aria-describedby. */
  hint?: string | undefined;
  /** This field's own message: shown under it, announced, and tied to it with aria-describedby. */
  error?: string | undefined;
  /** Marks the field as the one a problem shown elsewhere (above the form) is about. */
  invalid?: boolean | undefined;
  /** Says "(optional)" after the label: it may be left empty. */
  optional?: boolean | undefined;
  ref?: Ref<HTMLInputElement> | undefined;
}

/** A labelled input with its hint and its error; `id` is generated unless the page names it. */
export function Field({ label, hint, error, invalid, optional, id: givenId, ...input }: FieldProps) {
  const generated = useId();
  const id = givenId ?? generated;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy =
    [input['aria-describedby'], hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') ||
    undefined;
  const marked = Boolean(error || invalid);
  return (
    <div className={marked ? 'field field--invalid' : 'field'}>
      <label htmlFor={id}>
        {label}
        {optional ? <span className="field__optional"> (optional)</span> : null}
      </label>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <input
        {...input}
        id={id}
        aria-invalid={marked || input['aria-invalid'] || undefined}
        aria-describedby={describedBy}
      />
      {/* not an alert: a form marks many fields at once and says so in one alert of its own */}
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A field's error under it, announced when it appears; `id` is what the control's aria-describedby
 * names. For controls a `Field` does not draw (selects, checkbox groups, a React Hook Form field).
 */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="field__error" id={id} role="alert">
      {message}
    </p>
  );
}

/** What went wrong with a form as a whole, announced as soon as it appears; nothing without a problem. */
export function FormAlert({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <div className="form-alert" role="alert">
      {children}
    </div>
  );
}

/**
 * The form's submit button: disabled while the form's work is pending (a double click sends once),
 * saying so in words and to screen readers (aria-busy).
 */
export function SubmitButton({
  pending,
  pendingText,
  children,
  className = 'button button--primary',
}: {
  pending: boolean;
  pendingText: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <button className={className} type="submit" disabled={pending} aria-busy={pending}>
      {pending ? pendingText : children}
    </button>
  );
}
