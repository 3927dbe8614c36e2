import { Field, FieldGroup } from '@cartwheel/design';
import { useUpdateOrder } from '@cartwheel/react';
import {
  type Address,
  type AddressWithContact,
  type Order,
  type OrderUpdate,
  ValidationError,
} from '@cartwheel/sdk';
import { useId, useRef, useState } from 'react';
import { type FieldPath, type RegisterOptions, useForm } from 'react-hook-form';
import { useNotice } from '../components/notices.tsx';
import { useCan } from '../staff-session.ts';

/** An address and its contact as the merchant edits them: every field as text. */
interface AddressFields {
  firstName: string;
  lastName: string;
  company: string;
  phone: string;
  addressLine: string;
  addressLine2: string;
  city: string;
  postalCode: string;
  subdivision: string;
  country: string;
}

interface AddressForm {
  email: string;
  billing: AddressFields;
  shipping: AddressFields;
}

const CONTACT_FIELDS = ['firstName', 'lastName', 'company', 'phone'] as const;
const ADDRESS_FIELDS = [
  'addressLine',
  'addressLine2',
  'city',
  'postalCode',
  'subdivision',
  'country',
] as const;

/** The platform's limits (orders/operation-schemas.ts, http/input.ts `BuyerAddress`), checked here first. */
const MAX_LENGTH: Record<keyof AddressFields, number> = {
  firstName: 200,
  lastName: 200,
  company: 200,
  phone: 50,
  addressLine: 500,
  addressLine2: 500,
  city: 200,
  postalCode: 200,
  subdivision: 200,
  country: 200,
};
const EMAIL_MAX = 320;
/** The platform's own email check (orders/operations.ts `applyUpdate`). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const LABELS: Record<keyof AddressFields, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  company: 'Company',
  phone: 'Phone',
  addressLine: 'Street address',
  addressLine2: 'Apartment, suite',
  city: 'City',
  postalCode: 'Postal code',
  subdivision: 'State or region',
  country: 'Country code',
};

function fieldsOf(value: AddressWithContact | undefined): AddressFields {
  const contact = value?.contactDetails;
  const address = value?.address;
  return {
    firstName: contact?.firstName ?? '',
    lastName: contact?.lastName ?? '',
    company: contact?.company ?? '',
    phone: contact?.phone ?? '',
    addressLine:
      address?.addressLine ??
      [address?.streetAddress?.number, address?.streetAddress?.name].filter(Boolean).join(' '),
    addressLine2: address?.addressLine2 ?? '',
    city: address?.city ?? '',
    postalCode: address?.postalCode ?? '',
    subdivision: address?.subdivision ?? '',
    country: address?.country ?? '',
  };
}

/** A text as the platform keeps it: trimmed, and absent when empty. */
const text = (value: string) => value.trim() || null;

/** The address sent: what was stored, with the edited lines in place of the split street. */
function addressOf(before: Address | undefined, fields: AddressFields): Address {
  const { streetAddress: _street, formattedAddress: _formatted, ...kept } = before ?? {};
  const address: Address = { ...kept };
  for (const name of ADDRESS_FIELDS) {
    const value = text(fields[name]);
    if (value === null) delete address[name];
    else address[name] = value;
  }
  return address;
}

/** The update's paths for one edited address: its contact, its address, or both. */
function changesOf(
  dirty: Partial<Record<keyof AddressFields, boolean>> | undefined,
  fields: AddressFields,
  before: AddressWithContact | undefined,
  path: string,
): { value: AddressWithContact; mask: string[] } | undefined {
  const contactChanged = CONTACT_FIELDS.some((name) => dirty?.[name]);
  const addressChanged = ADDRESS_FIELDS.some((name) => dirty?.[name]);
  if (!contactChanged && !addressChanged) return undefined;
  const value: AddressWithContact = {};
  const mask: string[] = [];
  if (contactChanged) {
    value.contactDetails = {
      firstName: text(fields.firstName),
      lastName: text(fields.lastName),
      company: text(fields.company),
      phone: text(fields.phone),
    };
    mask.push(`${path}.contactDetails`);
  }
  if (addressChanged) {
    value.address = addressOf(before?.address, fields);
    mask.push(`${path}.address`);
  }
  return { value, mask };
}

const SHIPPING_PATH = 'shippingInfo.logistics.shippingDestination';

/** Which form field a platform's violation names (`order.billingInfo.address.city` is `billing.city`). */
function fieldOfViolation(path: string): FieldPath<AddressForm> | undefined {
  const bare = path.replace(/^order\./, '');
  if (bare === 'buyerInfo.email') return 'email';
  const match =
    /^(billingInfo|shippingInfo\.logistics\.shippingDestination)\.(?:address|contactDetails)\.(\w+)/.exec(
      bare,
    );
  const name = match?.[2] === 'addressLine1' ? 'addressLine' : match?.[2];
  if (!match || !name || !(name in MAX_LENGTH)) return undefined;
  return `${match[1] === 'billingInfo' ? 'billing' : 'shipping'}.${name}` as FieldPath<AddressForm>;
}

/**
 * The buyer's email and the billing and shipping addresses, edited in place: `updateOrder` with a field
 * mask naming only what the merchant changed, so nothing else of the order is touched. The same limits
 * as the platform's are checked as the merchant types; a refusal shows beside its field and what was
 * typed stays. The order shows its new addresses at once.
 */
export function AddressEditor({ order }: { order: Order }) {
  const canManage = useCan('orders.manage');
  const [open, setOpen] = useState(false);
  const [done, setDone] = useNotice();
  const notice = useRef<HTMLParagraphElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const id = useId();
  if (!canManage) return null;
  return (
    <div className="address-editor">
      {done ? (
        <p className="notice" role="status" tabIndex={-1} ref={notice}>
          {done}
        </p>
      ) : null}
      <button
        ref={toggle}
        className="button"
        type="button"
        aria-expanded={open}
        aria-controls={`${id}-form`}
        onClick={() => {
          setDone(undefined);
          setOpen(!open);
        }}
      >
        {open ? 'Close the address form' : 'Edit addresses'}
      </button>
      {open ? (
        <AddressEditForm
          id={`${id}-form`}
          order={order}
          onCancel={() => {
            setOpen(false);
            toggle.current?.focus();
          }}
          onSaved={(what) => {
            setOpen(false);
            setDone(what);
            // the form is gone: the confirmation takes focus, so a keyboard user hears what was saved
            requestAnimationFrame(() => notice.current?.focus());
          }}
        />
      ) : null}
    </div>
  );
}

function AddressEditForm(props: { id: string; order: Order; onCancel(): void; onSaved(what: string): void }) {
  const { order } = props;
  const update = useUpdateOrder();
  const billingBefore = order.billingInfo;
  const logistics = order.shippingInfo?.logistics;
  // only an order shipped to an address has one to edit (the platform refuses it for a pickup)
  const shipsToAddress = Boolean(logistics && !logistics.pickupDetails);
  const shippingBefore = logistics?.shippingDestination;
  const form = useForm<AddressForm>({
    defaultValues: {
      email: order.buyerInfo?.email ?? '',
      billing: fieldsOf(billingBefore),
      shipping: fieldsOf(shippingBefore),
    },
    mode: 'onTouched',
  });
  const { register, formState, setError } = form;
  const [refusal, setRefusal] = useState<string>();

  const submit = form.handleSubmit(async (values) => {
    setRefusal(undefined);
    const dirty = formState.dirtyFields;
    const change: OrderUpdate = {};
    const mask: string[] = [];
    const saved: string[] = [];
    if (dirty.email) {
      change.buyerInfo = { email: values.email.trim() };
      mask.push('buyerInfo.email');
      saved.push('the buyer’s email');
    }
    const billing = changesOf(dirty.billing, values.billing, billingBefore, 'billingInfo');
    if (billing) {
      change.billingInfo = billing.value;
      mask.push(...billing.mask);
      saved.push('the billing address');
    }
    const shipping = shipsToAddress
      ? changesOf(dirty.shipping, values.shipping, shippingBefore, SHIPPING_PATH)
      : undefined;
    if (shipping) {
      change.shippingInfo = { logistics: { shippingDestination: shipping.value } };
      mask.push(...shipping.mask);
      saved.push('the shipping address');
    }
    if (mask.length === 0) {
      setRefusal('Nothing to save: no field was changed.');
      return;
    }
    try {
      await update.mutateAsync({ orderId: order.id ?? '', order: change, fieldMask: mask });
      props.onSaved(`Saved ${saved.join(' and ')}.`);
    } catch (error) {
      // the platform's field violations go beside their fields; what was typed stays
      let placed = false;
      if (error instanceof ValidationError) {
        for (const violation of error.fieldViolations) {
          const field = fieldOfViolation(violation.field);
          if (field) {
            setError(field, { message: violation.description }, { shouldFocus: !placed });
            placed = true;
          }
        }
      }
      setRefusal(
        `Nothing was saved: ${placed ? 'see the fields marked below' : error instanceof Error ? error.message : String(error)}. What you typed is still here.`,
      );
    }
  });

  const input = (name: FieldPath<AddressForm>, label: string, options: RegisterOptions<AddressForm>) => {
    const error = name
      .split('.')
      .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], formState.errors) as
      | { message?: string }
      | undefined;
    const fieldId = `${props.id}-${name.replace('.', '-')}`;
    return (
      <Field
        key={name}
        id={fieldId}
        label={label}
        error={error?.message}
        invalid={Boolean(error)}
        {...register(name, options)}
      />
    );
  };

  const addressFieldset = (part: 'billing' | 'shipping', legend: string) => (
    <FieldGroup bordered legend={legend} className="address-fields">
      {(Object.keys(LABELS) as Array<keyof AddressFields>).map((name) =>
        input(`${part}.${name}`, LABELS[name], {
          maxLength: { value: MAX_LENGTH[name], message: `At most ${MAX_LENGTH[name]} characters.` },
        }),
      )}
    </FieldGroup>
  );

  return (
    <form id={props.id} className="address-form" onSubmit={submit} noValidate aria-label="Edit addresses">
      {refusal ? (
        <p className="form-alert" role="alert">
          {refusal}
        </p>
      ) : null}
      {input('email', 'Buyer email', {
        required: 'The order needs the buyer’s email.',
        maxLength: { value: EMAIL_MAX, message: `At most ${EMAIL_MAX} characters.` },
        pattern: { value: EMAIL, message: 'Enter an email address, like name@example.com.' },
      })}
      {addressFieldset('billing', 'Billing')}
      {shipsToAddress ? addressFieldset('shipping', 'Shipping') : null}
      <div className="form-actions">
        <button className="button button--primary" type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save addresses'}
        </button>
        <button className="button button--quiet" type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
