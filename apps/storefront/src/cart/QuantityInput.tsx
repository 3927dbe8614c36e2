import { useId } from 'react';

/** A number input labelled "Quantity": whole numbers from 1 up to `max` when there is one. */
export function QuantityInput({
  value,
  onChange,
  onCommit,
  max,
  disabled,
  describedBy,
}: {
  value: number | '';
  onChange: (value: number | '') => void;
  /** Called when the shopper leaves the field or presses Enter. */
  onCommit?: () => void;
  max?: number;
  disabled?: boolean;
  describedBy?: string;
}) {
  const id = useId();
  return (
    <div className="field quantity">
      <label htmlFor={id}>Quantity</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={1}
        max={max}
        step={1}
        value={value}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(event) => {
          const text = event.target.value;
          const number = Number.parseInt(text, 10);
          onChange(text === '' || Number.isNaN(number) ? '' : Math.max(1, number));
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
