import {
  useApplyCoupon,
  useCurrentCart,
  useEstimateTotals,
  useRemoveCoupon,
  useRemoveLineItems,
  useUpdateLineItemQuantity,
} from '@cartwheel/react';
import { ApplicationError, type Cart, type LineItem, ValidationError } from '@cartwheel/sdk';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { useDocumentTitle } from '../components/hooks.ts';
import { ProductImage } from '../components/ProductImage.tsx';
import { ErrorMessage, Loading } from '../components/Status.tsx';
import { checkoutBlocker, lineAvailability, lineName, lineOptions } from './availability.ts';
import { CheckoutButton } from './CheckoutButton.tsx';
import { EstimateForm } from './EstimateForm.tsx';
import { cheapestShippingTitle, useEstimateAddress } from './estimate-address.ts';
import { money, PriceSummaryList } from './PriceSummaryList.tsx';
import { cartChangeProblem, sentence } from './problems.ts';
import { QuantityInput } from './QuantityInput.tsx';
import './cart.css';

/** `/cart`: the lines, the coupon, an estimate of shipping and tax for an address, and the way to pay. */
export function CartPage() {
  useDocumentTitle('Your cart');
  const cart = useCurrentCart();

  if (cart.isPending) return <Loading label="Loading your cart…" />;
  if (cart.isError) return <ErrorMessage what="your cart" error={cart.error} retry={() => cart.refetch()} />;
  if (!cart.data?.lineItems?.length) {
    return (
      <section className="cart-page cart-page--empty">
        <h1>Your cart</h1>
        <p>Your cart is empty.</p>
        <Link to="/products" className="button">
          Continue shopping
        </Link>
      </section>
    );
  }
  return <FilledCart cart={cart.data} />;
}

function FilledCart({ cart }: { cart: Cart }) {
  const [address, setAddress] = useEstimateAddress();
  const shippingAddress = address ? { ...address } : undefined;
  const estimate = useEstimateTotals({ shippingAddress });
  const blocker = checkoutBlocker(cart);
  const shippingTitle = address ? cheapestShippingTitle(estimate.data?.shippingInfo) : undefined;
  const code = estimate.data?.shippingInfo?.selectedCarrierServiceOption?.code;

  return (
    <section className="cart-page">
      <h1>Your cart</h1>
      <div className="cart-page__layout">
        <ul className="cart-lines" aria-label="Items in your cart">
          {(cart.lineItems ?? []).map((line) => (
            <CartLine key={line.id} line={line} />
          ))}
        </ul>
        <aside className="cart-summary" aria-labelledby="cart-summary-title">
          <h2 id="cart-summary-title">Order summary</h2>
          <CouponForm cart={cart} />
          <EstimateForm address={address} onEstimate={setAddress} />
          {estimate.isError ? (
            <p role="alert" className="status--error">
              We couldn't estimate the totals. Please try again in a moment.
            </p>
          ) : null}
          {address && estimate.data?.calculationErrors?.generalShippingCalculationError ? (
            <p role="alert" className="status--error" data-testid="shipping-problem">
              We don't ship to that address.
            </p>
          ) : null}
          {address && estimate.data?.calculationErrors?.taxCalculationError ? (
            <p role="alert" className="status--error" data-testid="tax-problem">
              Tax can't be worked out for that address: choose its state.
            </p>
          ) : null}
          <div
            aria-busy={estimate.isFetching}
            aria-live="polite"
            className="cart-summary__totals"
            data-testid="cart-totals"
          >
            {estimate.data ? (
              <PriceSummaryList
                summary={estimate.data.priceSummary}
                estimated={Boolean(address)}
                shippingTitle={shippingTitle}
                testIdPrefix="cart"
              />
            ) : (
              <Loading label="Calculating totals…" />
            )}
          </div>
          {blocker ? (
            <p role="alert" className="status--error" data-testid="checkout-blocked">
              {blocker}
            </p>
          ) : null}
          <CheckoutButton
            disabled={Boolean(blocker)}
            shippingAddress={shippingAddress}
            selectedShippingOption={address && code ? { code } : undefined}
          />
        </aside>
      </div>
    </section>
  );
}

/** How long a typed or arrowed quantity rests before it is sent. */
const QUANTITY_SETTLE_MS = 400;

function CartLine({ line }: { line: LineItem }) {
  const name = lineName(line);
  const options = lineOptions(line);
  const availability = lineAvailability(line);
  const update = useUpdateLineItemQuantity();
  const remove = useRemoveLineItems();
  const [quantity, setQuantity] = useState<number | ''>(line.quantity ?? 1);
  const [shownFor, setShownFor] = useState(line.quantity);
  // whether the field holds a change of the shopper's the platform has not been sent yet
  const [edited, setEdited] = useState(false);
  const problemId = useId();
  // the platform's quantity wins whenever it changes (after an update, or a merge on sign-in), unless
  // the shopper has typed on since the change that answered: their newer number is sent next
  if (shownFor !== line.quantity) {
    setShownFor(line.quantity);
    if (!edited) setQuantity(line.quantity ?? 1);
  }

  const [refusal, setRefusal] = useState<string>();

  /** Enter or leaving the field: 0 removes the line (a negative number is refused), else the new quantity. */
  const commit = () => {
    setEdited(false);
    if (quantity === '' || quantity === line.quantity || !line.id) {
      setQuantity(line.quantity ?? 1);
      setRefusal(undefined);
      return;
    }
    if (quantity < 0) {
      setRefusal('Enter a quantity of 0 or more (0 removes the item).');
      setQuantity(line.quantity ?? 1);
      return;
    }
    setRefusal(undefined);
    // a refused change leaves the line as it was: the field shows the quantity the cart still holds
    const restore = { onError: () => setQuantity(line.quantity ?? 1) };
    if (quantity === 0) remove.mutate([line.id], restore);
    else update.mutate([{ id: line.id, quantity }], restore);
  };
  const busy = update.isPending || remove.isPending;
  // an arrow key or a typed number applies once the shopper pauses, without leaving the field; 0 (which
  // removes the line) and a negative number wait for Enter or leaving the field. One change is in
  // flight at a time: a number typed meanwhile is sent when the answer is in.
  useEffect(() => {
    if (!edited || busy || quantity === '' || quantity <= 0 || quantity === line.quantity) return;
    const timer = setTimeout(commit, QUANTITY_SETTLE_MS);
    return () => clearTimeout(timer);
  });
  const failed = update.error ?? remove.error;
  const problem = refusal ?? (failed ? cartChangeProblem(failed) : undefined);

  return (
    <li className="cart-line" data-testid="cart-line" aria-label={name}>
      <div className="cart-line__image">
        <ProductImage image={line.image ? { url: line.image.url } : undefined} alt="" />
      </div>
      <div className="cart-line__info">
        <h2 className="cart-line__name">
          {line.url?.relativePath?.startsWith('/') ? <Link to={line.url.relativePath}>{name}</Link> : name}
        </h2>
        {options ? <p className="cart-line__options">{options}</p> : null}
        <p className="cart-line__unit">
          <span className="visually-hidden">Unit price </span>
          <span data-testid="line-unit-price">{money(line.price)}</span>
          {line.fullPrice && line.fullPrice.amount !== line.price?.amount ? (
            <>
              {' '}
              <s className="price__original">{money(line.fullPrice)}</s>
            </>
          ) : null}
        </p>
        {availability.label ? (
          <p
            className={`cart-line__stock ${availability.blocksCheckout ? 'stock--out' : 'stock--low'}`}
            data-testid="line-availability"
          >
            {availability.label}
          </p>
        ) : null}
      </div>
      <div className="cart-line__actions">
        <QuantityInput
          value={quantity}
          onChange={(next) => {
            setRefusal(undefined);
            setEdited(true);
            setQuantity(next);
          }}
          onCommit={commit}
          min={0}
          // never disabled while a change is sent: that would take the focus from a shopper still typing
          disabled={remove.isPending}
          invalid={Boolean(problem)}
          describedBy={problem ? problemId : undefined}
        />
        <p className="cart-line__total">
          <span className="visually-hidden">Line total </span>
          <span data-testid="line-total">{money(line.lineItemPrice)}</span>
        </p>
        <button
          type="button"
          className="link-button"
          disabled={remove.isPending || !line.id}
          onClick={() => line.id && remove.mutate([line.id])}
        >
          Remove
        </button>
      </div>
      {problem ? (
        <p id={problemId} role="alert" className="status--error cart-line__problem">
          {problem}
        </p>
      ) : null}
    </li>
  );
}

function CouponForm({ cart }: { cart: Cart }) {
  const apply = useApplyCoupon();
  const remove = useRemoveCoupon();
  const [code, setCode] = useState('');
  const id = useId();
  const coupon = cart.appliedDiscounts?.find((discount) => discount.coupon)?.coupon;

  if (coupon) {
    return (
      <div className="coupon coupon--applied" data-testid="applied-coupon">
        <p>
          Coupon <strong>{coupon.code}</strong> applied
          {coupon.amount?.formattedAmount ? ` (−${coupon.amount.formattedAmount})` : ''}
        </p>
        <button
          type="button"
          className="link-button"
          disabled={remove.isPending}
          onClick={() => remove.mutate()}
        >
          Remove
        </button>
        {remove.error ? (
          <p role="alert" className="status--error">
            {cartChangeProblem(remove.error)}
          </p>
        ) : null}
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (trimmed) apply.mutate(trimmed, { onSuccess: () => setCode('') });
  };
  return (
    <form className="coupon" onSubmit={submit}>
      <div className="field">
        <label htmlFor={id}>Coupon code</label>
        <div className="coupon__row">
          <input
            id={id}
            type="text"
            autoComplete="off"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            aria-invalid={apply.error ? true : undefined}
          />
          <button
            type="submit"
            className="button button--secondary"
            disabled={apply.isPending || !code.trim()}
          >
            Apply
          </button>
        </div>
      </div>
      {apply.error ? (
        <p role="alert" className="status--error">
          {couponProblem(apply.error)}
        </p>
      ) : null}
    </form>
  );
}

function couponProblem(error: unknown): string {
  if (error instanceof ApplicationError && error.description) return sentence(error.description);
  if (error instanceof ApplicationError || error instanceof ValidationError) {
    return "That code can't be used here. Check it and try again.";
  }
  return cartChangeProblem(error);
}
