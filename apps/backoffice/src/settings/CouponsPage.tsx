import { useCoupons, useCreateCoupon, useDeleteCoupon, useUpdateCoupon } from '@cartwheel/react';
import { type CouponDiscountType, couponWindowStatus, type StoreCoupon } from '@cartwheel/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import {
  ConfirmedRowAction,
  EditRowButton,
  FieldError,
  formatDate,
  isoOfLocalInput,
  localInputOf,
  placeViolations,
  SettingForm,
  useEditing,
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
  const [notice, setNotice] = useState<string>();
  const { register, handleSubmit, formState, setError, reset, watch } = useForm<CouponFormValues>({
    defaultValues: EMPTY,
  });
  const editing = useEditing<StoreCoupon, CouponFormValues>(reset, EMPTY, valuesOf);
  const errors = formState.errors;
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
    <>
      <h1>Coupons</h1>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <section className="panel" aria-labelledby="coupons-title">
        <h2 id="coupons-title">Coupons</h2>
        {coupons.isError ? (
          <ErrorNotice what="the coupons" error={coupons.error} retry={() => coupons.refetch()} />
        ) : null}
        {coupons.data?.length === 0 ? <p className="muted">No coupons yet: create one below.</p> : null}
        {coupons.data?.length ? (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Coupons</caption>
              <thead>
                <tr>
                  <th scope="col">Code</th>
                  <th scope="col">Discount</th>
                  <th scope="col">Minimum subtotal</th>
                  <th scope="col">Starts</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {coupons.data.map((coupon) => {
                  const status = couponWindowStatus(coupon);
                  return (
                    <tr key={coupon.id}>
                      <th scope="row">{coupon.code}</th>
                      <td>{discountOf(coupon)}</td>
                      <td>{coupon.minimumSubtotal ?? '—'}</td>
                      <td>{formatDate(coupon.startTime ?? null)}</td>
                      <td>{coupon.expirationTime ? formatDate(coupon.expirationTime) : 'Never'}</td>
                      <td>
                        <span className={`badge badge--${status.toLowerCase()}`}>
                          {coupon.active ? STATUS_LABELS[status] : 'Off'}
                        </span>
                      </td>
                      <td>
                        <div className="row-actions">
                          <EditRowButton name={coupon.code} onEdit={() => editing.start(coupon)} />
                          <ConfirmedRowAction
                            verb="Delete"
                            name={coupon.code}
                            title={`Delete the coupon ${coupon.code}?`}
                            description="Shoppers can no longer apply it."
                            confirm="Delete coupon"
                            mutation={remove}
                            variables={coupon.id}
                            onDone={() => {
                              if (editing.id === coupon.id) editing.stop();
                              setNotice(`The coupon ${coupon.code} was deleted.`);
                            }}
                          />
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      <SettingForm
        editing={editing.record?.code}
        addTitle="New coupon"
        addLabel="Create coupon"
        noun="coupon"
        busy={create.isPending || update.isPending}
        error={editing.id ? update.error : create.error}
        onSubmit={submit}
        onCancel={editing.stop}
      >
        <div className="field-row">
          <div className="field">
            <label htmlFor="coupon-code">Code</label>
            <input
              id="coupon-code"
              aria-invalid={Boolean(errors.code)}
              aria-describedby={errors.code ? 'coupon-code-error' : undefined}
              {...register('code', {
                validate: (value) =>
                  /^[A-Za-z0-9_-]{1,40}$/.test(value.trim()) || 'Letters, digits, - and _, like SPRING10.',
              })}
            />
            <FieldError id="coupon-code-error" message={errors.code?.message} />
          </div>
          <div className="field">
            <label htmlFor="coupon-type">Discount</label>
            <select id="coupon-type" {...register('discountType')}>
              <option value="PERCENTAGE">Percentage off</option>
              <option value="FIXED_AMOUNT">Amount off</option>
              <option value="FREE_SHIPPING">Free shipping</option>
            </select>
          </div>
          {type === 'FREE_SHIPPING' ? null : (
            <div className="field">
              <label htmlFor="coupon-value">{type === 'PERCENTAGE' ? 'Percentage' : 'Amount'}</label>
              <input
                id="coupon-value"
                inputMode="decimal"
                aria-invalid={Boolean(errors.value)}
                aria-describedby={errors.value ? 'coupon-value-error' : undefined}
                {...register('value', {
                  validate: (value, all) =>
                    all.discountType === 'FREE_SHIPPING' ||
                    (/^\d{1,12}(\.\d{1,6})?$/.test(value.trim()) && Number(value) > 0) ||
                    (all.discountType === 'PERCENTAGE'
                      ? 'A percentage like 10.'
                      : 'An amount like 5 or 4.50.'),
                })}
              />
              <FieldError id="coupon-value-error" message={errors.value?.message} />
            </div>
          )}
        </div>
        <div className="field-row">
          <div className="field">
            <label htmlFor="coupon-minimum">
              Minimum subtotal <span className="muted">(optional)</span>
            </label>
            <input
              id="coupon-minimum"
              inputMode="decimal"
              aria-invalid={Boolean(errors.minimumSubtotal)}
              aria-describedby={errors.minimumSubtotal ? 'coupon-minimum-error' : undefined}
              {...register('minimumSubtotal', {
                validate: (value) =>
                  value.trim() === '' || /^\d{1,12}(\.\d{1,6})?$/.test(value.trim()) || 'An amount like 50.',
              })}
            />
            <FieldError id="coupon-minimum-error" message={errors.minimumSubtotal?.message} />
          </div>
          <div className="field">
            <label htmlFor="coupon-start">
              Starts <span className="muted">(optional)</span>
            </label>
            <input
              id="coupon-start"
              type="datetime-local"
              aria-invalid={Boolean(errors.startTime)}
              aria-describedby={errors.startTime ? 'coupon-start-error' : undefined}
              {...register('startTime')}
            />
            <FieldError id="coupon-start-error" message={errors.startTime?.message} />
          </div>
          <div className="field">
            <label htmlFor="coupon-expires">
              Expires <span className="muted">(optional)</span>
            </label>
            <input
              id="coupon-expires"
              type="datetime-local"
              aria-invalid={Boolean(errors.expirationTime)}
              aria-describedby={errors.expirationTime ? 'coupon-expires-error' : undefined}
              {...register('expirationTime')}
            />
            <FieldError id="coupon-expires-error" message={errors.expirationTime?.message} />
          </div>
        </div>
      </SettingForm>
    </>
  );
}
