import { Field, SelectField } from '@cartwheel/design';
import { useCoupons, useCreateCoupon, useDeleteCoupon, useUpdateCoupon } from '@cartwheel/react';
import { type CouponDiscountType, couponWindowStatus, type StoreCoupon } from '@cartwheel/sdk';
import {
  formatDate,
  isoOfLocalInput,
  localInputOf,
  placeViolations,
  SettingListPage,
  useSettingList,
} from './common.tsx';

interface CouponFormValues {
  code: string;
  discountType: CouponDiscountType;
  /** The percentage or the amount off, by the type. */
  value: string;
  minimumSubtotal: string;
  /** `datetime-local` values, or empty. */
  startTime: string;
  expirationTime: string;
}

const EMPTY: CouponFormValues = {
  code: '',
  discountType: 'PERCENTAGE',
  value: '',
  minimumSubtotal: '',
  startTime: '',
  expirationTime: '',
};

const STATUS_LABELS = { LIVE: 'Live', PENDING: 'Pending', EXPIRED: 'Expired' } as const;

function discountOf(coupon: StoreCoupon): string {
  if (coupon.discountType === 'PERCENTAGE') return `${coupon.percentage}% off`;
  if (coupon.discountType === 'FIXED_AMOUNT') return `${coupon.fixedAmount} off`;
  return 'Free shipping';
}

const valuesOf = (coupon: StoreCoupon): CouponFormValues => ({
  code: coupon.code,
  discountType: coupon.discountType,
  value:
    coupon.discountType === 'PERCENTAGE'
      ? String(coupon.percentage ?? '')
      : coupon.discountType === 'FIXED_AMOUNT'
        ? (coupon.fixedAmount ?? '')
        : '',
  minimumSubtotal: coupon.minimumSubtotal ?? '',
  startTime: localInputOf(coupon.startTime),
  expirationTime: localInputOf(coupon.expirationTime),
});

/** Coupons with their window's status: LIVE, PENDING (not started) or EXPIRED. */
export function CouponsPage() {
  const coupons = useCoupons();
  const create = useCreateCoupon();
  const update = useUpdateCoupon();
  const remove = useDeleteCoupon();
  const { notice, setNotice, form, editing, errors } = useSettingList<StoreCoupon, CouponFormValues>(
    EMPTY,
    valuesOf,
  );
  const { register, handleSubmit, setError, watch } = form;
  const type = watch('discountType');
  const submit = handleSubmit(async (values) => {
    setNotice(undefined);
    try {
      const fields = {
        code: values.code.trim(),
        discountType: values.discountType,
        ...(values.discountType === 'PERCENTAGE' ? { percentage: Number(values.value) } : {}),
        ...(values.discountType === 'FIXED_AMOUNT' ? { fixedAmount: values.value.trim() } : {}),
        minimumSubtotal: values.minimumSubtotal.trim() || null,
        startTime: isoOfLocalInput(values.startTime),
        expirationTime: isoOfLocalInput(values.expirationTime),
      };
      // a change of kind clears the other kind's value, so the coupon holds one
      const coupon = editing.id
        ? await update.mutateAsync({
            id: editing.id,
            coupon: {
              ...fields,
              percentage: fields.percentage ?? null,
              fixedAmount: fields.fixedAmount ?? null,
            },
          })
        : await create.mutateAsync(fields);
      setNotice(`The coupon ${coupon.code} was ${editing.id ? 'saved' : 'created'}.`);
      editing.stop();
    } catch (error) {
      placeViolations(
        error,
        [
          'code',
          'discountType',
          'percentage',
          'fixedAmount',
          'minimumSubtotal',
          'startTime',
          'expirationTime',
        ],
        (field, message) =>
          setError(
            field === 'percentage' || field === 'fixedAmount' ? 'value' : (field as keyof CouponFormValues),
            {
              message,
            },
          ),
      );
    }
  });
  return (
    <SettingListPage
      heading="Coupons"
      notice={notice}
      title="Coupons"
      query={coupons}
      what="the coupons"
      empty="No coupons yet: create one below."
      nameHeader="Code"
      nameOf={(coupon) => coupon.code}
      columns={[
        { header: 'Discount', cell: discountOf },
        { header: 'Minimum subtotal', cell: (coupon) => coupon.minimumSubtotal ?? '—' },
        { header: 'Starts', cell: (coupon) => formatDate(coupon.startTime ?? null) },
        {
          header: 'Expires',
          cell: (coupon) => (coupon.expirationTime ? formatDate(coupon.expirationTime) : 'Never'),
        },
        { header: 'Status', cell: statusBadge },
      ]}
      editing={editing}
      remove={{
        mutation: remove,
        title: (coupon) => `Delete the coupon ${coupon.code}?`,
        description: 'Shoppers can no longer apply it.',
        confirm: 'Delete coupon',
        done: (coupon) => setNotice(`The coupon ${coupon.code} was deleted.`),
      }}
      form={{
        addTitle: 'New coupon',
        addLabel: 'Create coupon',
        noun: 'coupon',
        busy: create.isPending || update.isPending,
        error: editing.id ? update.error : create.error,
        onSubmit: submit,
      }}
    >
      <div className="field-row">
        <Field
          label="Code"
          announce
          error={errors.code?.message}
          {...register('code', {
            validate: (value) =>
              /^[A-Za-z0-9_-]{1,40}$/.test(value.trim()) || 'Letters, digits, - and _, like SPRING10.',
          })}
        />
        <SelectField
          label="Discount"
          announce
          error={errors.discountType?.message}
          {...register('discountType')}
        >
          <option value="PERCENTAGE">Percentage off</option>
          <option value="FIXED_AMOUNT">Amount off</option>
          <option value="FREE_SHIPPING">Free shipping</option>
        </SelectField>
        {type === 'FREE_SHIPPING' ? null : (
          <Field
            label={type === 'PERCENTAGE' ? 'Percentage' : 'Amount'}
            inputMode="decimal"
            announce
            error={errors.value?.message}
            {...register('value', {
              validate: (value, all) =>
                all.discountType === 'FREE_SHIPPING' ||
                (/^\d{1,12}(\.\d{1,6})?$/.test(value.trim()) && Number(value) > 0) ||
                (all.discountType === 'PERCENTAGE' ? 'A percentage like 10.' : 'An amount like 5 or 4.50.'),
            })}
          />
        )}
      </div>
      <div className="field-row">
        <Field
          label="Minimum subtotal"
          optional
          inputMode="decimal"
          announce
          error={errors.minimumSubtotal?.message}
          {...register('minimumSubtotal', {
            validate: (value) =>
              value.trim() === '' || /^\d{1,12}(\.\d{1,6})?$/.test(value.trim()) || 'An amount like 50.',
          })}
        />
        <Field
          label="Starts"
          optional
          type="datetime-local"
          announce
          error={errors.startTime?.message}
          {...register('startTime')}
        />
        <Field
          label="Expires"
          optional
          type="datetime-local"
          announce
          error={errors.expirationTime?.message}
          {...register('expirationTime')}
        />
      </div>
    </SettingListPage>
  );
}

function statusBadge(coupon: StoreCoupon) {
  const status = couponWindowStatus(coupon);
  return (
    <span className={`badge badge--${status.toLowerCase()}`}>
      {coupon.active ? STATUS_LABELS[status] : 'Off'}
    </span>
  );
}
