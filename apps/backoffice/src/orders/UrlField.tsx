import { Field, type FieldProps } from '@cartwheel/design';
import { useEffect, useRef } from 'react';

/**
 * A kit `Field` whose starting value is the view's (kept in the URL) and that follows it when the URL
 * changes from elsewhere (back, a saved view). It is not remounted for that, so the merchant's focus
 * stays where it is when their own Enter changes the URL. `onCommit` gets the trimmed text on Enter and
 * when the field loses the focus.
 */
export function UrlField({
  value,
  onCommit,
  ...props
}: { value: string; onCommit?: (value: string) => void } & Omit<
  FieldProps,
  'value' | 'defaultValue' | 'ref'
>) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (input.current && input.current.value.trim() !== value) input.current.value = value;
  }, [value]);
  return (
    <Field
      ref={input}
      defaultValue={value}
      {...(onCommit && {
        onBlur: (event) => onCommit(event.target.value.trim()),
        onKeyDown: (event) => {
          if (event.key === 'Enter') onCommit(event.currentTarget.value.trim());
        },
      })}
      {...props}
    />
  );
}
