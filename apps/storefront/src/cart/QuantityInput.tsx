import { useId } from 'react';

/**
 * A number input labelled "Quantity": whole numbers from `min` (1 unless said) up to `max` when there
 * is one. It reports what was typed as a whole number (or '' while the field is empty or unreadable);
 * the caller decides what a number outside the range means, since the browser's own `min` and `max`
 * only bound the arrows.
 */
export function QuantityInput({
  value,
  onChange,
  onCommit,
  min = 1,
  max,
  disabled,
  invalid,
  describedBy,
}: {
  value: number | '';
  onChange: (value: number | '') => void;
  /** Called when the shopper leaves the field or presses Enter. */
  onCommit?: () => void;
  min?: number;
  max?: number | undefined;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string | undefined;
}) {
  const id = useId();
  return (
    <div className="field quantity">
      <label htmlFor={id}>Quantity</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        value={value}
        disabled={disabled}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          const text = event.target.value;
          const number = Number.parseInt(text, 10);
          onChange(text === '' || Number.isNaN(number) ? '' : number);
        }}
        onBlur={onCommit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            onCommit?.();
          }
        }}
      />
    </div>
  );
}
