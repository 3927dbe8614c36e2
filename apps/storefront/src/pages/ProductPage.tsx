import {
  useAddToCart,
  useBackInStockCollecting,
  useInventoryItemsV3,
  useProductBySlug,
  useProductOptionsAvailability,
  useProductV3BySlug,
  useRequestBackInStock,
} from '@cartwheel/react';
import {
  ApplicationError,
  type CatalogReference,
  type Choice,
  type MediaItem,
  type Product,
  type ProductOption,
  type ProductOptionsAvailability,
  STORES_APP_ID,
  type SubscriptionV3,
  ValidationError,
} from '@cartwheel/sdk';
import { useId, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { FEW_LEFT } from '../cart/availability.ts';
import { useMiniCart } from '../cart/mini-cart.tsx';
import { cartChangeProblem } from '../cart/problems.ts';
import { QuantityInput } from '../cart/QuantityInput.tsx';
import { useDocumentTitle } from '../components/hooks.ts';
import { Price } from '../components/Price.tsx';
import { ProductImage } from '../components/ProductImage.tsx';
import { ErrorMessage, Loading, NotFound } from '../components/Status.tsx';
import {
  ModifierPicker,
  type ModifierSelection,
  modifierOptions,
  NO_MODIFIERS,
  unchosenModifiers,
  useModifiers,
} from './ModifierPicker.tsx';

/** `/product-page/:slug`. */
export function ProductPage() {
  const { slug } = useParams();
  const product = useProductBySlug(slug);

  if (product.isPending) return <Loading label="Loading product…" />;
  if (product.isError) {
    return <ErrorMessage what="this product" error={product.error} retry={() => product.refetch()} />;
  }
  if (!product.data) {
    return (
      <NotFound title="We couldn't find that product">
        <p>It may be sold out for good, or the link may be mistyped.</p>
      </NotFound>
    );
  }
  return <ProductDetails key={product.data.id} product={product.data} />;
}

type Choices = Record<string, string>;

function ProductDetails({ product }: { product: Product }) {
  useDocumentTitle(product.name);
  const options = (product.productOptions ?? []).filter((option) => option.name && option.choices?.length);
  const [choices, setChoices] = useState<Choices>({});
  const [pickedMedia, setPickedMedia] = useState<MediaItem | undefined>();
  const availability = useProductOptionsAvailability(product.id, choices);
  const plans = useSubscriptionPlans(product);
  // the option the shopper buys by: undefined for a one-time purchase
  const [plan, setPlan] = useState<string | undefined>();
  const chosenPlan = plans.oneTime ? plan : (plan ?? plans.subscriptions[0]?.id ?? undefined);
  const modifiers = useModifiers(product);
  const [modifierSelection, setModifierSelection] = useState<ModifierSelection>(NO_MODIFIERS);

  const allChosen = options.every((option) => choices[option.name!]);
  const answer = availability.data;
  // while new choices load, the previous variant stays on screen (dimmed) rather than flashing back
  const variant = allChosen ? answer?.selectedVariant : undefined;
  const preorder = usePreorder(product, variant ?? undefined, options.length > 0);
  const missing = options
    .filter((option) => !choices[option.name!])
    .map((option) => option.name!.toLowerCase());

  const choose = (option: ProductOption, choice: Choice) => {
    setChoices((current) => ({ ...current, [option.name!]: choiceKey(choice) }));
    const media = choice.media?.mainMedia ?? choice.media?.items?.[0];
    if (media) setPickedMedia(media);
  };

  return (
    <article className="product">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/">Home</Link> <span aria-hidden="true">/</span> <Link to="/products">All products</Link>{' '}
        <span aria-hidden="true">/</span> <span aria-current="page">{product.name}</span>
      </nav>
      <div className="product__layout">
        <Gallery product={product} picked={pickedMedia} onPick={setPickedMedia} />
        <div className="product__info" aria-busy={availability.isFetching}>
          {product.ribbon ? <span className="ribbon ribbon--inline">{product.ribbon}</span> : null}
          <AdditionalRibbons product={product} />
          {product.brand ? (
            <p className="product__brand" data-testid="product-brand">
              {product.brand}
            </p>
          ) : null}
          <h1 className="product__name">{product.name}</h1>
          <Price
            price={variant?.price ?? product.priceData ?? product.price}
            className="price--large"
            testId="product-price"
          />
          <p className="stock" data-testid="stock-status" aria-live="polite">
            <StockStatus
              product={product}
              allChosen={allChosen}
              answer={variant ? answer : undefined}
              preorder={preorder}
            />
          </p>

          {options.map((option) => (
            <OptionPicker
              key={option.name}
              option={option}
              available={answer?.productOptions?.find((o) => o.name === option.name)}
              chosen={choices[option.name!]}
              onChoose={(choice) => choose(option, choice)}
            />
          ))}

          {plans.subscriptions.length > 0 ? (
            <SubscriptionPicker
              product={product}
              plans={plans}
              price={variant?.price?.price ?? product.priceData?.price}
              chosen={chosenPlan}
              onChoose={setPlan}
            />
          ) : null}

          {modifiers.length > 0 ? (
            <ModifierPicker
              modifiers={modifiers}
              currency={product.priceData?.currency || 'USD'}
              value={modifierSelection}
              onChange={setModifierSelection}
            />
          ) : null}

          {availability.isError ? (
            <p role="alert" className="status--error">
              We couldn't check availability. Please pick again in a moment.
            </p>
          ) : null}

          {(variant?.sku ?? product.sku) ? (
            <p className="sku">
              SKU: <span data-testid="sku">{variant?.sku ?? product.sku}</span>
            </p>
          ) : null}

          <AddToCart
            product={product}
            choices={choices}
            missing={missing}
            variant={variant ?? undefined}
            subscriptionOptionId={chosenPlan}
            modifiers={modifierSelection}
            unchosenModifiers={unchosenModifiers(modifiers, modifierSelection)}
            preorder={preorder}
            checking={allChosen && options.length > 0 && (!answer || availability.isPlaceholderData)}
          />

          <TextSection id="description" title="Description" html={product.description} />
          {(product.additionalInfoSections ?? []).map((section, index) => (
            <TextSection
              // biome-ignore lint/suspicious/noArrayIndexKey: a product's sections keep their order while shown
              key={index}
              id={`info-section-${index}`}
              title={section.title ?? ''}
              html={section.description}
            />
          ))}
        </div>
      </div>
    </article>
  );
}

type SelectedVariant = NonNullable<ProductOptionsAvailability['selectedVariant']>;

/**
 * The quantity and "Add to cart": the line names the chosen variant (or the product when it has no
 * options); the mini-cart opens with the cart the platform answered.
 */
function AddToCart({
  product,
  choices,
  missing,
  variant,
  subscriptionOptionId,
  modifiers,
  unchosenModifiers,
  preorder,
  checking,
}: {
  product: Product;
  choices: Choices;
  missing: string[];
  variant: SelectedVariant | undefined;
  /** The subscription option the line is bought by (the hosted cart's `options.subscriptionOptionId`). */
  subscriptionOptionId: string | undefined;
  /** The product's modifiers as the shopper picked them, and the mandatory ones not picked yet. */
  modifiers: ModifierSelection;
  unchosenModifiers: string[];
  /** The chosen variant is sold out but taken on preorder (`usePreorder`). */
  preorder: Preorder | undefined;
  checking: boolean;
}) {
  const add = useAddToCart();
  const miniCart = useMiniCart();
  const [quantity, setQuantity] = useState<number | ''>(1);
  const quantityNoteId = useId();
  const hasOptions = missing.length > 0 || Object.keys(choices).length > 0;
  // sold out, unless the store takes preorders for it: then bought as any line, the platform counting the limit
  const outOfStock = soldOut(product, variant, hasOptions) && !preorder;
  const left = stockLeft(product, variant, hasOptions);
  // counted stock caps the quantity; untracked stock has no cap (the platform's own limit still holds)
  const max = left !== undefined && left > 0 ? left : undefined;
  const tooMany = max !== undefined && quantity !== '' && quantity > max;

  const blocked = missing.length
    ? `Choose ${listOf(missing)} first.`
    : unchosenModifiers.length
      ? `Choose ${listOf(unchosenModifiers)} first.`
      : outOfStock
        ? 'This item is out of stock.'
        : checking
          ? 'Checking availability…'
          : undefined;

  const chosen = variant?.id ? { variantId: variant.id } : hasOptions ? { options: choices } : {};
  const catalogReference = {
    appId: STORES_APP_ID,
    catalogItemId: product.id,
    ...(Object.keys(chosen).length > 0 ? { options: chosen } : {}),
  };
  // bought by subscription, or with modifiers: they ride on the line's reference, as the hosted cart takes them
  const lineOptions = modifierOptions(
    subscriptionOptionId ? { ...chosen, subscriptionOptionId } : chosen,
    modifiers,
  );
  const lineReference =
    Object.keys(lineOptions).length > 0 ? { ...catalogReference, options: lineOptions } : catalogReference;

  const submit = () => {
    if (blocked || tooMany || quantity === '') return;
    add.mutate([{ quantity, catalogReference: lineReference }], { onSuccess: () => miniCart.setOpen(true) });
  };

  return (
    <div className="add-to-cart">
      <QuantityInput
        value={quantity}
        onChange={(next) => {
          // a new quantity is a new request: the last answer's "Added" or refusal goes
          add.reset();
          setQuantity(next === '' ? '' : Math.max(1, next));
        }}
        max={max}
        disabled={Boolean(outOfStock)}
        invalid={tooMany}
        describedBy={max !== undefined && (tooMany || max <= FEW_LEFT) ? quantityNoteId : undefined}
      />
      {max !== undefined && !outOfStock && (tooMany || max <= FEW_LEFT) ? (
        <p
          id={quantityNoteId}
          className={tooMany ? 'quantity__note status--error' : 'quantity__note stock--low'}
          data-testid="quantity-limit"
          role={tooMany ? 'alert' : undefined}
        >
          {tooMany ? `Only ${max} left. Choose ${max} or fewer.` : `Only ${max} left`}
        </p>
      ) : null}
      <button
        type="button"
        className="button button--wide"
        disabled={Boolean(blocked) || tooMany || quantity === '' || add.isPending}
        aria-describedby="cart-note"
        onClick={submit}
      >
        {add.isPending ? 'Adding…' : preorder ? 'Preorder' : 'Add to cart'}
      </button>
      {preorder ? (
        <p className="stock--preorder" data-testid="preorder-note">
          {preorder.message ? `Available for preorder: ${preorder.message}` : 'Available for preorder'}
        </p>
      ) : null}
      <p id="cart-note" className="note" aria-live="polite">
        {blocked ?? (add.isSuccess ? 'Added to your cart.' : '')}
      </p>
      {add.error ? (
        <p role="alert" className="status--error" data-testid="add-problem">
          {add.error instanceof ApplicationError || add.error instanceof ValidationError
            ? cartChangeProblem(add.error)
            : 'We could not add this to your cart. Please try again in a moment.'}
        </p>
      ) : null}
      {outOfStock && !missing.length ? (
        <NotifyMe
          // a new variant is a new request; a product without options keeps its form as its variant loads
          key={hasOptions ? (variant?.id ?? '') : product.id}
          product={product}
          catalogReference={catalogReference}
          price={variant?.price?.formatted?.price ?? product.priceData?.formatted?.price}
        />
      ) : null}
    </div>
  );
}

/** The ribbons shown beside the main one (v3's `additionalRibbons`), from the product's v3 reading. */
function AdditionalRibbons({ product }: { product: Product }) {
  const v3 = useProductV3BySlug(product.slug ?? undefined);
  const names = (v3.data?.additionalRibbons ?? []).flatMap((ribbon) => (ribbon.name ? [ribbon.name] : []));
  return (
    <>
      {names.map((name) => (
        <span key={name} className="ribbon ribbon--inline">
          {name}
        </span>
      ))}
    </>
  );
}

/** A product's subscription options (v3's `subscriptionDetails`), the visible ones, and whether it sells once too. */
function useSubscriptionPlans(product: Product) {
  const v3 = useProductV3BySlug(product.slug ?? undefined);
  const details = v3.data?.subscriptionDetails;
  const subscriptions = (details?.subscriptions ?? []).filter(
    (subscription) => subscription.id && subscription.visible !== false,
  );
  return { subscriptions, oneTime: subscriptions.length === 0 || details?.allowOneTimePurchases !== false };
}

const FREQUENCY_NAMES: Record<string, [string, string]> = {
  DAY: ['day', 'days'],
  WEEK: ['week', 'weeks'],
  MONTH: ['month', 'months'],
  YEAR: ['year', 'years'],
};

/** "every day", "every 2 weeks", and "6 times" when it ends. */
function scheduleOf(subscription: SubscriptionV3): string {
  const interval = subscription.interval ?? 1;
  const [one, many] = FREQUENCY_NAMES[subscription.frequency ?? 'MONTH'] ?? ['period', 'periods'];
  const every = interval === 1 ? `every ${one}` : `every ${interval} ${many}`;
  return subscription.billingCycles ? `${every}, ${subscription.billingCycles} times` : every;
}

/** The price one delivery costs by the subscription: the product's price less its discount. */
function subscriptionPrice(price: number, subscription: SubscriptionV3): number {
  const discount = subscription.discount;
  if (discount?.type === 'PERCENT') return price * (1 - (discount.percentOff ?? 0) / 100);
  if (discount?.type === 'AMOUNT') return Math.max(0, price - Number(discount.amountOff ?? 0));
  return price;
}

/**
 * How to buy a product sold by subscription: once (when the store allows it) or by one of its
 * subscription options, each with its schedule and its discounted price. The platform prices the line.
 */
function SubscriptionPicker({
  product,
  plans,
  price,
  chosen,
  onChoose,
}: {
  product: Product;
  plans: ReturnType<typeof useSubscriptionPlans>;
  price: number | undefined;
  chosen: string | undefined;
  onChoose: (id: string | undefined) => void;
}) {
  const name = useId();
  const money = (amount: number) =>
    new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency: product.priceData?.currency || 'USD',
    }).format(amount);
  return (
    <fieldset className="option subscription-picker" data-testid="subscription-picker">
      <legend className="option__name">How would you like to buy it?</legend>
      {plans.oneTime ? (
        <label className="subscription-picker__choice">
          <input
            type="radio"
            name={name}
            checked={chosen === undefined}
            onChange={() => onChoose(undefined)}
          />
          <span>One-time purchase</span>
          {price !== undefined ? <span className="subscription-picker__price">{money(price)}</span> : null}
        </label>
      ) : null}
      {plans.subscriptions.map((subscription) => (
        <label key={subscription.id} className="subscription-picker__choice">
          <input
            type="radio"
            name={name}
            checked={chosen === subscription.id}
            onChange={() => onChoose(subscription.id ?? undefined)}
          />
          <span>
            {subscription.title}: {scheduleOf(subscription)}
          </span>
          {price !== undefined ? (
            <span className="subscription-picker__price">
              {money(subscriptionPrice(price, subscription))} a delivery
            </span>
          ) : null}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * "Notify me when it's back": on a sold-out product or variant, a shopper leaves an email and the store
 * writes once it is in stock again. Shown only while the store takes such requests.
 */
function NotifyMe({
  product,
  catalogReference,
  price,
}: {
  product: Product;
  catalogReference: CatalogReference;
  price: string | undefined;
}) {
  const collecting = useBackInStockCollecting();
  const request = useRequestBackInStock();
  const [email, setEmail] = useState('');
  const emailId = useId();
  if (!collecting.data) return null;
  if (request.isSuccess) {
    return (
      <p className="notify-me status--success" role="status" data-testid="notify-me-done">
        We'll email {request.data.email} when it's back in stock.
      </p>
    );
  }
  const error = request.error;
  const already =
    error instanceof ApplicationError && error.code === 'BACK_IN_STOCK_NOTIFICATION_REQUEST_ALREADY_EXISTS';
  return (
    <form
      className="notify-me"
      aria-labelledby={`${emailId}-title`}
      onSubmit={(event) => {
        event.preventDefault();
        request.mutate({
          catalogReference,
          email: email.trim(),
          itemUrl: window.location.href,
          itemDetails: { name: product.name ?? '', price: price ?? '' },
        });
      }}
    >
      <h2 id={`${emailId}-title`} className="notify-me__title">
        Notify me when it's back
      </h2>
      <div className="field">
        <label htmlFor={emailId}>Email</label>
        <input
          id={emailId}
          type="email"
          required
          autoComplete="email"
          value={email}
          onChange={(event) => {
            request.reset();
            setEmail(event.target.value);
          }}
        />
      </div>
      <button type="submit" className="button button--secondary" disabled={request.isPending}>
        {request.isPending ? 'Sending…' : 'Notify me'}
      </button>
      {error ? (
        <p role="alert" className="status--error" data-testid="notify-me-problem">
          {already
            ? 'You are already on the list for this item.'
            : error instanceof ValidationError
              ? 'Please check your email address.'
              : 'We could not save your request. Please try again in a moment.'}
        </p>
      ) : null}
    </form>
  );
}

/**
 * How many of the product (or the chosen variant) are left when its stock is counted; nothing when it
 * is not counted (or not known yet). The chosen variant's count comes from the availability answer,
 * else from the product's own variants; a product without options counts on its `stock`.
 */
function stockLeft(
  product: Product,
  variant: SelectedVariant | undefined,
  hasOptions: boolean,
): number | undefined {
  if (variant) {
    if (typeof variant.quantity === 'number') return variant.quantity;
    const own = product.variants?.find((candidate) => candidate.id === variant.id)?.stock;
    return own?.trackQuantity && typeof own.quantity === 'number' ? own.quantity : undefined;
  }
  if (hasOptions) return undefined;
  const stock = product.stock;
  return stock?.trackInventory && typeof stock.quantity === 'number' ? stock.quantity : undefined;
}

/** Whether the chosen variant (or the product, without options) is out of stock, as v1 says. */
function soldOut(product: Product, variant: SelectedVariant | undefined, hasOptions: boolean): boolean {
  return (
    variant?.inStock === false ||
    (!hasOptions && (product.stock?.inStock === false || product.stock?.inventoryStatus === 'OUT_OF_STOCK'))
  );
}

/** A sold-out variant a shopper may still order ahead: the merchant's preorder message. */
interface Preorder {
  message: string | null;
}

/**
 * The preorder a shopper can place for the chosen variant (or the product, without options) when it is
 * sold out: its v3 inventory item sells on preorder (`PREORDER`: enabled, under its limit), with the
 * merchant's message. The items are asked for only when it is sold out.
 */
function usePreorder(
  product: Product,
  variant: SelectedVariant | undefined,
  hasOptions: boolean,
): Preorder | undefined {
  const asked = soldOut(product, variant, hasOptions) && (variant?.id !== undefined || !hasOptions);
  const items = useInventoryItemsV3(asked ? (product.id ?? undefined) : undefined).data;
  const item = variant?.id
    ? items?.find((candidate) => candidate.variantId === variant.id)
    : items?.length === 1
      ? items[0]
      : undefined;
  return asked && item?.availabilityStatus === 'PREORDER'
    ? { message: item.preorderInfo?.message ?? null }
    : undefined;
}

function StockStatus({
  product,
  allChosen,
  answer,
  preorder,
}: {
  product: Product;
  allChosen: boolean;
  answer: ProductOptionsAvailability | undefined;
  preorder: Preorder | undefined;
}) {
  if (preorder) return <span className="stock--preorder">Available for preorder</span>;
  if (answer?.selectedVariant) {
    return answer.selectedVariant.inStock ? (
      <span className="stock--in">In stock</span>
    ) : (
      <span className="stock--out">Out of stock</span>
    );
  }
  if (product.stock?.inStock === false || product.stock?.inventoryStatus === 'OUT_OF_STOCK') {
    return <span className="stock--out">Out of stock</span>;
  }
  if (!allChosen) return <span className="stock--hint">Choose options to see availability</span>;
  return <span className="stock--hint">Checking availability…</span>;
}

function Gallery({
  product,
  picked,
  onPick,
}: {
  product: Product;
  picked: MediaItem | undefined;
  onPick: (media: MediaItem) => void;
}) {
  const items = (product.media?.items ?? []).filter((item) => item.image?.url);
  const main = picked ?? product.media?.mainMedia ?? items[0];
  return (
    <div className="gallery">
      <div className="gallery__main">
        <ProductImage media={main} alt={main?.title || product.name || ''} />
      </div>
      {items.length > 1 ? (
        <ul className="gallery__thumbs" aria-label="Product images">
          {items.map((item, index) => (
            <li key={item.id ?? index}>
              <button
                type="button"
                className="gallery__thumb"
                aria-pressed={item.image?.url === main?.image?.url}
                aria-label={`Show image ${index + 1} of ${items.length}`}
                onClick={() => onPick(item)}
              >
                <ProductImage media={item} alt="" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Drop-downs for drop_down options, swatches for colours; unavailable choices are disabled. */
function OptionPicker({
  option,
  available,
  chosen,
  onChoose,
}: {
  option: ProductOption;
  available: ProductOption | undefined;
  chosen: string | undefined;
  onChoose: (choice: Choice) => void;
}) {
  const id = useId();
  const choices = option.choices ?? [];
  const state = useMemo(() => {
    const byKey = new Map((available?.choices ?? []).map((choice) => [choiceKey(choice), choice]));
    return (choice: Choice) => {
      const known = byKey.get(choiceKey(choice)) ?? choice;
      return { inStock: known.inStock !== false, visible: known.visible !== false };
    };
  }, [available]);

  if (option.optionType === 'color') {
    const chosenChoice = choices.find((choice) => choiceKey(choice) === chosen);
    return (
      <fieldset className="option option--color">
        <legend>
          {option.name}
          {chosenChoice ? <span className="option__chosen">: {choiceLabel(chosenChoice)}</span> : null}
        </legend>
        <div className="swatches">
          {choices.map((choice) => {
            const { inStock, visible } = state(choice);
            const label = choiceLabel(choice);
            const key = choiceKey(choice);
            return (
              <label key={key} className="swatch" title={inStock ? label : `${label} (out of stock)`}>
                <input
                  type="radio"
                  name={id}
                  value={key}
                  checked={chosen === key}
                  disabled={!inStock || !visible}
                  onChange={() => onChoose(choice)}
                  aria-label={inStock ? label : `${label} (out of stock)`}
                />
                <span
                  className="swatch__color"
                  style={{ background: swatchColor(choice) }}
                  aria-hidden="true"
                />
              </label>
            );
          })}
        </div>
      </fieldset>
    );
  }

  return (
    <div className="option field">
      <label htmlFor={id}>{option.name}</label>
      <select
        id={id}
        value={chosen ?? ''}
        onChange={(event) => {
          const choice = choices.find((c) => choiceKey(c) === event.target.value);
          if (choice) onChoose(choice);
        }}
      >
        <option value="" disabled>
          Choose {option.name?.toLowerCase()}
        </option>
        {choices.map((choice) => {
          const { inStock, visible } = state(choice);
          const key = choiceKey(choice);
          return (
            <option key={key} value={key} disabled={!inStock || !visible}>
              {choiceLabel(choice)}
              {!visible ? ' (unavailable)' : !inStock ? ' (out of stock)' : ''}
            </option>
          );
        })}
      </select>
    </div>
  );
}

/** How variants and availability requests name a choice: by its description ("Charcoal"), not a colour's value. */
function choiceKey(choice: Choice): string {
  return choice.description ?? choice.value ?? '';
}

function choiceLabel(choice: Choice): string {
  return choice.description ?? choice.value ?? '';
}

function swatchColor(choice: Choice): string {
  const value = choice.value ?? '';
  return /^(#|rgb|hsl)/i.test(value) ? value : (choice.description ?? value).toLowerCase();
}

function listOf(words: string[]): string {
  return words.length <= 1
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** The merchant's description is HTML; show its paragraphs as text rather than trusting its markup. */
/** The description, or one of the product's info sections: a titled section of its text, as paragraphs. */
function TextSection({ id, title, html }: { id: string; title: string; html: string | undefined }) {
  const paragraphs = useMemo(() => {
    if (!html) return [];
    const body = new DOMParser().parseFromString(html, 'text/html').body;
    const blocks = [...body.querySelectorAll('p, li, h1, h2, h3, h4')].map((node) =>
      node.textContent?.trim(),
    );
    const texts = blocks.length ? blocks : [body.textContent?.trim()];
    return texts.filter((text): text is string => Boolean(text));
  }, [html]);
  if (paragraphs.length === 0 || !title) return null;
  return (
    <section className="product__description" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {paragraphs.map((text, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of one text never reorder
        <p key={index}>{text}</p>
      ))}
    </section>
  );
}
