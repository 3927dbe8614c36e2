import type { InputHTMLAttributes, ReactNode } from 'react';

/** A labelled input of the account forms: the label names the input, so screen readers and tests find it. */
export function TextField({
  id,
  label,
  optional,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & {
  id: string;
  label: ReactNode;
  /** Says "(optional)" after the label: the shopper may leave it empty. */
  optional?: boolean;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {optional ? <span className="field__optional"> (optional)</span> : null}
      </label>
      <input id={id} {...input} />
    </div>
  );
}

/** What went wrong with a form, announced as soon as it appears; nothing when there is no problem. */
export function FormProblem({ problem }: { problem: ReactNode }) {
  return problem ? (
    <p className="account-alert" role="alert">
      {problem}
    </p>
  ) : null;
}
