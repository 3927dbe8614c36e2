import { Field, SelectField } from '@cartwheel/design';
import { useCheckoutTemplates, useDeleteCheckoutTemplate, useSaveCheckoutTemplate } from '@cartwheel/react';
import type { CheckoutTemplateInput, StoreCheckoutTemplate } from '@cartwheel/sdk';
import { filledIn, placeViolations, SettingListPage, useSettingList } from './common.tsx';

/** The stores app: the catalog's lines name it. */
const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';

interface TemplateFormValues {
  productId: string;
  quantity: string;
  /** A custom line (gift wrapping, a service): both or neither. */
  customName: string;
  customPrice: string;
  couponCode: string;
  status: StoreCheckoutTemplate['status'];
}

const EMPTY: TemplateFormValues = {
  productId: '',
  quantity: '1',
  customName: '',
  customPrice: '',
  couponCode: '',
  status: 'ACTIVE',
};

const valuesOf = (template: StoreCheckoutTemplate): TemplateFormValues => ({
  productId: template.lineItems[0]?.catalogReference.catalogItemId ?? '',
  quantity: String(template.lineItems[0]?.quantity ?? 1),
  customName: template.customLineItems[0]?.productName.original ?? '',
  customPrice: template.customLineItems[0]?.price ?? '',
  couponCode: template.couponCode ?? '',
  status: template.status,
});

/** The address a merchant puts in an email: opening it makes a checkout and lands on the hosted page. */
export const buyLinkOf = (template: StoreCheckoutTemplate) =>
  `${window.location.origin}/ecom/v1/checkout-templates/${encodeURIComponent(template.id)}/create-and-redirect-to-checkout`;

function linesOf(template: StoreCheckoutTemplate): string {
  const lines = [
    ...template.lineItems.map(
      (line) => `${line.quantity ?? 1} × product ${line.catalogReference.catalogItemId}`,
    ),
    ...template.customLineItems.map(
      (line) => `${line.quantity ?? 1} × ${line.productName.original} at ${line.price}`,
    ),
  ];
  return lines.join('; ') || 'No lines';
}

/** Checkout templates: lines, a custom line and a coupon, each with the buy link that uses it. */
export function CheckoutTemplatesPage() {
  const templates = useCheckoutTemplates();
  const save = useSaveCheckoutTemplate();
  const remove = useDeleteCheckoutTemplate();
  const { notice, setNotice, form, editing, errors } = useSettingList<
    StoreCheckoutTemplate,
    TemplateFormValues
  >(EMPTY, valuesOf);
  const { register, handleSubmit, setError } = form;
  const submit = handleSubmit(async (values) => {
    setNotice(undefined);
    const template: CheckoutTemplateInput = {
      status: values.status,
      lineItems: [
        {
          quantity: Number(values.quantity),
          catalogReference: { appId: STORES_APP_ID, catalogItemId: values.productId.trim() },
        },
      ],
      customLineItems: values.customName.trim()
        ? [
            {
              quantity: 1,
              price: values.customPrice.trim(),
              productName: { original: values.customName.trim() },
            },
          ]
        : [],
      couponCode: values.couponCode.trim() || null,
    };
    try {
      await save.mutateAsync({ ...(editing.id ? { id: editing.id } : {}), template });
      setNotice(`The checkout template was ${editing.id ? 'saved' : 'created'}.`);
      editing.stop();
    } catch (error) {
      placeViolations(error, ['lineItems', 'customLineItems', 'couponCode', 'status'], (field, message) =>
        setError(
          field === 'lineItems'
            ? 'productId'
            : field === 'customLineItems'
              ? 'customPrice'
              : (field as 'couponCode'),
          { message },
        ),
      );
    }
  });
  return (
    <SettingListPage
      heading="Checkout templates"
      notice={notice}
      title="Checkout templates"
      query={templates}
      what="the checkout templates"
      empty="No checkout templates yet: create one below, then put its buy link in an email."
      nameHeader="Lines"
      nameOf={linesOf}
      columns={[
        { header: 'Coupon', cell: (template) => template.couponCode ?? '—' },
        {
          header: 'Status',
          cell: (template) => (
            <span className={`badge badge--${template.status === 'ACTIVE' ? 'live' : 'expired'}`}>
              {template.status === 'ACTIVE' ? 'Active' : 'Inactive'}
            </span>
          ),
        },
        {
          header: 'Buy link',
          cell: (template) => (
            <a href={buyLinkOf(template)} target="_blank" rel="noreferrer">
              Buy link
            </a>
          ),
        },
      ]}
      editing={editing}
      remove={{
        mutation: remove,
        title: () => 'Delete this checkout template?',
        description: 'Its buy link stops working.',
        confirm: 'Delete template',
        done: () => setNotice('The checkout template was deleted.'),
      }}
      form={{
        addTitle: 'New checkout template',
        addLabel: 'Create template',
        noun: 'checkout template',
        busy: save.isPending,
        error: save.error,
        onSubmit: submit,
      }}
    >
      <div className="field-row">
        <Field
          label="Product id"
          announce
          error={errors.productId?.message}
          {...register('productId', { validate: filledIn('The product the link sells.') })}
        />
        <Field
          label="Quantity"
          inputMode="numeric"
          announce
          error={errors.quantity?.message}
          {...register('quantity', {
            validate: (value) => /^[1-9]\d{0,3}$/.test(value.trim()) || 'A whole number, 1 or more.',
          })}
        />
        <SelectField label="Status" announce error={errors.status?.message} {...register('status')}>
          <option value="ACTIVE">Active</option>
          <option value="INACTIVE">Inactive: its link makes no checkout</option>
        </SelectField>
      </div>
      <div className="field-row">
        <Field
          label="Custom line name"
          optional
          announce
          error={errors.customName?.message}
          {...register('customName')}
        />
        <Field
          label="Custom line price"
          optional
          inputMode="decimal"
          announce
          error={errors.customPrice?.message}
          {...register('customPrice', {
            validate: (value, all) =>
              all.customName.trim() === '' ||
              /^\d{1,12}(\.\d{1,2})?$/.test(value.trim()) ||
              'An amount like 4.50.',
          })}
        />
        <Field
          label="Coupon code"
          optional
          announce
          error={errors.couponCode?.message}
          {...register('couponCode')}
        />
      </div>
    </SettingListPage>
  );
}
