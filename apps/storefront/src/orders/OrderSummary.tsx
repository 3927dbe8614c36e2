import type { AddressWithContact, Order } from '@cartwheel/sdk';
import { countryName } from '@cartwheel/sdk/wire';
import { money, PriceSummaryList } from '../cart/PriceSummaryList.tsx';
import { ProductImage } from '../components/ProductImage.tsx';
import './orders.css';

/** An order as its buyer sees it: items, totals, and where it goes and is billed to. */
export function OrderSummary({ order }: { order: Order }) {
  const shipTo = order.shippingInfo?.logistics?.shippingDestination;
  const pickup = order.shippingInfo?.logistics?.pickupDetails?.address;
  return (
    <div className="order">
      <section aria-labelledby="order-items-title">
        <h2 id="order-items-title">Items</h2>
        <ul className="order__lines">
          {(order.lineItems ?? []).map((line) => (
            <li key={line.id} className="order__line" data-testid="order-line">
              <ProductImage image={line.image ? { url: line.image.url } : undefined} alt="" />
              <div>
                <p className="order__line-name">
                  {line.productName?.translated || line.productName?.original}
                </p>
                {line.descriptionLines?.length ? (
                  <p className="order__line-options">
                    {line.descriptionLines
                      .map(
                        (d) =>
                          `${d.name?.original ?? ''}: ${d.plainText?.original ?? d.colorInfo?.original ?? ''}`,
                      )
                      .join(', ')}
                  </p>
                ) : null}
                <p className="order__line-quantity">
                  {line.quantity} × {money(line.price)}
                </p>
              </div>
              <p className="order__line-total">{money(line.lineItemPrice ?? line.totalPriceBeforeTax)}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="order-totals-title">
        <h2 id="order-totals-title">Totals</h2>
        <PriceSummaryList
          summary={order.priceSummary}
          shippingTitle={order.shippingInfo?.title}
          testIdPrefix="order"
        />
      </section>
      <div className="order__addresses">
        {shipTo?.address ? (
          <section aria-labelledby="order-ship-title">
            <h2 id="order-ship-title">Shipping to</h2>
            <AddressBlock contact={shipTo} testId="order-shipping-address" />
          </section>
        ) : pickup ? (
          <section aria-labelledby="order-pickup-title">
            <h2 id="order-pickup-title">Pick up at</h2>
            <AddressBlock contact={{ address: pickup }} testId="order-pickup-address" />
          </section>
        ) : null}
        {order.billingInfo?.address ? (
          <section aria-labelledby="order-bill-title">
            <h2 id="order-bill-title">Billing address</h2>
            <AddressBlock contact={order.billingInfo} testId="order-billing-address" />
          </section>
        ) : null}
      </div>
    </div>
  );
}

function AddressBlock({ contact, testId }: { contact: AddressWithContact; testId: string }) {
  const address = contact.address ?? {};
  const name = [contact.contactDetails?.firstName, contact.contactDetails?.lastName]
    .filter(Boolean)
    .join(' ');
  const street =
    address.addressLine ||
    [address.streetAddress?.number, address.streetAddress?.name].filter(Boolean).join(' ') ||
    undefined;
  const cityLine = [address.city, address.subdivision?.replace(/^[A-Z]{2}-/, ''), address.postalCode]
    .filter(Boolean)
    .join(', ');
  return (
    <address className="order__address" data-testid={testId}>
      {[name, street, address.addressLine2, cityLine, countryName(address.country)]
        .filter(Boolean)
        .map((line) => (
          <span key={line}>{line}</span>
        ))}
    </address>
  );
}

/** "March 3, 2026". */
export function orderDate(date: Date | undefined): string {
  return date ? date.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' }) : '';
}

/** What an order's status means to its buyer. */
export function orderStatusLabel(order: Order): string {
  if (order.status === 'CANCELED') return 'Canceled';
  if (order.fulfillmentStatus === 'FULFILLED') return 'Fulfilled';
  if (order.paymentStatus === 'PAID') return 'Paid';
  if (order.status === 'PENDING' || order.paymentStatus === 'PENDING') return 'Pending';
  return 'Placed';
}
