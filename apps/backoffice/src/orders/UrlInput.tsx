import { type ComponentProps, useEffect, useRef } from 'react';

/**
 * A text input whose starting value is the view's (kept in the URL) and that follows it when the URL
 * changes from elsewhere (back, a saved view). It is not remounted for that, so the merchant's focus
 * stays where it is when their own Enter changes the URL.
 */
export function UrlInput({ value, ...props }: { value: string } & Omit<ComponentProps<'input'>, 'value'>) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (input.current && input.current.value.trim() !== value) input.current.value = value;
  }, [value]);
  return <input ref={input} defaultValue={value} {...props} />;
}
