import type { Address, Checkout, ShippingOption } from '@cartwheel/sdk';
import { countryName } from '@cartwheel/sdk/wire';

/** Every way the checkout's items can reach the shopper, with its time and price, as radio buttons. */
export function DeliveryMethods({
  checkout,
  chosen,
  error,
  disabled,
  onChoose,
}: {
  checkout: Checkout;
  /** The shopper's choice while the checkout is being re-priced for it. */
  chosen: string | undefined;
  error?: string | undefined;
  disabled: boolean;
  onChoose: (code: string) => void;
}) {
  const options = (checkout.shippingInfo?.carrierServiceOptions ?? []).flatMap(
    (carrier) => carrier.shippingOptions ?? [],
  );
  const selected = chosen ?? checkout.shippingInfo?.selectedCarrierServiceOption?.code;
  if (options.length === 0) {
    return (
      <p className="muted">
        {checkout.shippingInfo?.shippingDestination?.address?.city
          ? 'No delivery method is offered for this order and address.'
          : 'Enter your delivery address to see how your order can reach you.'}
      </p>
    );
  }
  return (
    <div
      className={error ? 'methods field--invalid' : 'methods'}
      role="radiogroup"
      aria-label="Delivery method"
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? 'delivery-method-error' : undefined}
    >
      {options.map((option) => (
        <label className="method" key={option.code}>
          <input
            type="radio"
            name="deliveryMethod"
            value={option.code}
            checked={option.code === selected}
            disabled={disabled}
            onChange={() => option.code && onChoose(option.code)}
          />
          <span className="method__text">
            <span className="method__title">{option.title ?? option.code}</span>
            <MethodDetails option={option} />
          </span>
          <span className="method__price">
            {option.cost?.price?.formattedAmount ?? option.cost?.price?.amount}
          </span>
        </label>
      ))}
      {error ? (
        <p className="field__error" id="delivery-method-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function MethodDetails({ option }: { option: ShippingOption }) {
  const logistics = option.logistics;
  const pickup = logistics?.pickupDetails?.address;
  const slot = logistics?.deliveryTimeSlot;
  const time =
    logistics?.deliveryTime || (slot?.from && slot.to ? `${day(slot.from)} – ${day(slot.to)}` : '');
  return (
    <>
      {time ? <span className="method__detail">{time}</span> : null}
      {pickup ? <span className="method__detail">Pick up at {formatAddress(pickup)}</span> : null}
      {logistics?.instructions ? <span className="method__detail">{logistics.instructions}</span> : null}
    </>
  );
}

/** The wire sends dates as ISO strings. */
function day(value: Date | string): string {
  return new Date(value).toLocaleDateString('en', { month: 'short', day: 'numeric' });
}

export function formatAddress(address: Address): string {
  if (address.formattedAddress) return address.formattedAddress;
  const street =
    address.addressLine ??
    [address.streetAddress?.number, address.streetAddress?.name].filter(Boolean).join(' ');
  return [
    street,
    address.addressLine2,
    address.city,
    // `US-NY` reads as `NY`
    address.subdivisionFullname ?? address.subdivision?.replace(/^[A-Z]{2}-/, ''),
    address.postalCode,
    countryName(address.country),
  ]
    .filter(Boolean)
    .join(', ');
}
