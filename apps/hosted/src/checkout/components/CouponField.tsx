import type { Checkout } from '@cartwheel/sdk';
import { type FormEvent, useId, useState } from 'react';

/**
 * The coupon: a code and "Apply", or the applied one with "Remove". A refused code keeps what was typed
 * and shows the platform's reason beside the field.
 */
export function CouponField({
  checkout,
  disabled,
  onApply,
  onRemove,
}: {
  checkout: Checkout;
  disabled: boolean;
  /** Resolves to the reason the code was refused, or nothing when it applied. */
  onApply: (code: string) => Promise<string | undefined>;
  onRemove: () => Promise<string | undefined>;
}) {
  const id = useId();
  const [code, setCode] = useState('');
  const [refusal, setRefusal] = useState<string>();
  const [busy, setBusy] = useState(false);
  const applied = (checkout.appliedDiscounts ?? []).find((discount) => discount.coupon)?.coupon;

  async function run(action: () => Promise<string | undefined>) {
    setBusy(true);
    const reason = await action();
    setRefusal(reason);
    setBusy(false);
    if (!reason) setCode('');
  }

  function apply(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) {
      setRefusal('Enter a coupon code.');
      return;
    }
    void run(() => onApply(code.trim()));
  }

  if (applied) {
    return (
      <div className="coupon coupon--applied">
        <p>
          Coupon <strong>{applied.code}</strong>
          {applied.name && applied.name !== applied.code ? ` (${applied.name})` : ''} applied
          {applied.amount?.formattedAmount ? `: −${applied.amount.formattedAmount}` : ''}
        </p>
        <button
          className="button button--secondary"
          type="button"
          disabled={disabled || busy}
          onClick={() => void run(onRemove)}
        >
          Remove
        </button>
        {refusal ? (
          <p className="field__error" role="alert">
            {refusal}
          </p>
        ) : null}
      </div>
    );
  }
  // its own form: Enter in the code applies it, and never places the order
  return (
    <form className={refusal ? 'coupon field--invalid' : 'coupon'} onSubmit={apply} noValidate>
      <label htmlFor={id}>Coupon code</label>
      <div className="coupon__row">
        <input
          id={id}
          name="couponCode"
          autoComplete="off"
          value={code}
          aria-invalid={refusal ? true : undefined}
          aria-describedby={refusal ? `${id}-error` : undefined}
          onChange={(event) => setCode(event.target.value)}
        />
        <button className="button button--secondary" type="submit" disabled={disabled || busy}>
          Apply
        </button>
      </div>
      {refusal ? (
        <p className="field__error" id={`${id}-error`} role="alert">
          {refusal}
        </p>
      ) : null}
    </form>
  );
}
