import { useStartCheckout } from '@cartwheel/react';
import { type Address, ApplicationError, type SelectedShippingOption } from '@cartwheel/sdk';

/**
 * "Checkout": makes a checkout of the cart (with the address estimated for, so the hosted page starts
 * where the cart left off) and sends the browser to the hosted checkout page.
 */
export function CheckoutButton({
  disabled,
  shippingAddress,
  selectedShippingOption,
  className = 'button button--wide',
}: {
  disabled?: boolean;
  shippingAddress?: Address;
  selectedShippingOption?: SelectedShippingOption;
  className?: string;
}) {
  const start = useStartCheckout();
  // after success the browser is leaving: keep the button busy until it has gone
  const busy = start.isPending || start.isSuccess;
  return (
    <>
      <button
        type="button"
        className={className}
        disabled={disabled || busy}
        aria-busy={busy}
        onClick={() =>
          start.mutate({
            ...(shippingAddress ? { shippingAddress } : {}),
            ...(selectedShippingOption ? { selectedShippingOption } : {}),
          })
        }
      >
        {busy ? 'Going to checkout…' : 'Checkout'}
      </button>
      {start.error ? (
        <p role="alert" className="status--error">
          {start.error instanceof ApplicationError && start.error.description
            ? start.error.description
            : 'We could not start the checkout. Please try again in a moment.'}
        </p>
      ) : null}
    </>
  );
}
