import type { Choice } from '@cartwheel/sdk/wire';
import { type SelectHTMLAttributes, useId } from 'react';

/** A labelled select whose error is announced and tied to it, like the form's text fields. */
export function SelectField({
  label,
  choices,
  placeholder,
  error,
  ...select
}: {
  label: string;
  choices: Choice[];
  placeholder?: string;
  error?: string | undefined;
} & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...select}
      >
        {placeholder ? <option value="">{placeholder}</option> : null}
        {choices.map((choice) => (
          <option key={choice.code} value={choice.code}>
            {choice.name}
          </option>
        ))}
      </select>
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
