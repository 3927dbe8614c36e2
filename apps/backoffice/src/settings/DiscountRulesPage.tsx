import { useDeleteDiscountRule, useDiscountRules, useSaveDiscountRule } from '@cartwheel/react';
import type { DiscountRule, DiscountRuleStatus } from '@cartwheel/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import {
  ConfirmedRowAction,
  EditRowButton,
  FieldError,
  formatDate,
  localInputOf,
  placeViolations,
  SettingForm,
  useEditing,
} from './common.tsx';

interface RuleFormValues {
  name: string;
  discountType: 'PERCENTAGE' | 'FIXED_AMOUNT';
  /** The percentage or the amount off the cart, by the type. */
  value: string;
  /** The cart subtotal from which the rule applies; empty: any cart. */
  minimumSubtotal: string;
  /** `datetime-local` values, or empty. */
  start: string;
  end: string;
  active: boolean;
}

const EMPTY: RuleFormValues = {
  name: '',
  discountType: 'PERCENTAGE',
  value: '',
  minimumSubtotal: '',
  start: '',
  end: '',
  active: true,
};

const STATUS_LABELS: Record<DiscountRuleStatus, string> = {
  LIVE: 'Live',
  PENDING: 'Pending',
  EXPIRED: 'Expired',
};

type SavedRule = DiscountRule & { id: string };

function valuesOf(rule: SavedRule): RuleFormValues {
  const discount = rule.discounts?.values?.[0];
  const percentage = discount?.percentage != null;
  return {
    name: rule.name ?? '',
    discountType: percentage ? 'PERCENTAGE' : 'FIXED_AMOUNT',
    value: percentage ? String(discount?.percentage) : (discount?.fixedAmount ?? ''),
    minimumSubtotal: rule.trigger?.subtotalRange?.from ?? '',
    start: localInputOf(rule.activeTimeInfo?.start),
    end: localInputOf(rule.activeTimeInfo?.end),
    active: rule.active !== false,
  };
}

/** What the rule takes off, as the list says it. */
function discountOf(rule: DiscountRule): string {
  const discount = rule.discounts?.values?.[0];
  if (!discount) return '—';
  const off = discount.percentage != null ? `${discount.percentage}% off` : `${discount.fixedAmount} off`;
  const from = rule.trigger?.subtotalRange?.from;
  return from ? `${off} carts from ${from}` : `${off} every cart`;
}

/**
 * Discount rules: automatic discounts on the cart, each LIVE, PENDING (its window has not started) or
 * EXPIRED as the platform derives from `activeTimeInfo`. Carts are priced with the live ones.
 */
export function DiscountRulesPage() {
  const rules = useDiscountRules();
  const save = useSaveDiscountRule();
  const remove = useDeleteDiscountRule();
  const [notice, setNotice] = useState<string>();
  const { register, handleSubmit, formState, setError, reset, watch } = useForm<RuleFormValues>({
    defaultValues: EMPTY,
  });
  const editing = useEditing<SavedRule, RuleFormValues>(reset, EMPTY, valuesOf);
  const errors = formState.errors;
  const type = watch('discountType');
  const submit = handleSubmit(async (values) => {
    setNotice(undefined);
    const minimum = values.minimumSubtotal.trim();
    try {
      const rule = await save.mutateAsync({
        id: editing.id,
        discountRule: {
          name: values.name.trim(),
          active: values.active,
          // the whole window is sent: a bound left empty is no bound (the rule's old one goes)
          activeTimeInfo: {
            ...(values.start ? { start: new Date(values.start) } : {}),
            ...(values.end ? { end: new Date(values.end) } : {}),
          },
          // a minimum subtotal is the rule's trigger; none: it applies to every cart
          trigger: minimum ? { triggerType: 'SUBTOTAL_RANGE', subtotalRange: { from: minimum } } : {},
          discounts: {
            values: [
              values.discountType === 'PERCENTAGE'
                ? { discountType: 'PERCENTAGE', targetType: 'ENTIRE_CART', percentage: Number(values.value) }
                : {
                    discountType: 'FIXED_AMOUNT',
                    targetType: 'ENTIRE_CART',
                    fixedAmount: values.value.trim(),
                  },
            ],
          },
        },
      });
      setNotice(`The discount rule ${rule.name} was ${editing.id ? 'saved' : 'created'}.`);
      editing.stop();
    } catch (error) {
      placeViolations(
        error,
        ['name', 'percentage', 'fixedAmount', 'from', 'start', 'end'],
        (field, message) =>
          setError(
            field === 'percentage' || field === 'fixedAmount'
              ? 'value'
              : field === 'from'
                ? 'minimumSubtotal'
                : (field as keyof RuleFormValues),
            { message },
          ),
      );
    }
  });
  return (
    <>
      <h1>Discount rules</h1>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <section className="panel" aria-labelledby="rules-title">
        <h2 id="rules-title">Discount rules</h2>
        {rules.isError ? (
          <ErrorNotice what="the discount rules" error={rules.error} retry={() => rules.refetch()} />
        ) : null}
        {rules.isPending ? <p role="status">Loading the discount rules…</p> : null}
        {rules.data?.length === 0 ? (
          <p className="muted">No discount rules yet: add one below and carts get it automatically.</p>
        ) : null}
        {rules.data?.length ? (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Discount rules</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Discount</th>
                  <th scope="col">Starts</th>
                  <th scope="col">Ends</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {(rules.data as SavedRule[]).map((rule) => {
                  const status = rule.status ?? 'LIVE';
                  const name = rule.name ?? rule.id;
                  return (
                    <tr key={rule.id}>
                      <th scope="row">{name}</th>
                      <td>{discountOf(rule)}</td>
                      <td>
                        {formatDate(rule.activeTimeInfo?.start ? String(rule.activeTimeInfo.start) : null)}
                      </td>
                      <td>{formatDate(rule.activeTimeInfo?.end ? String(rule.activeTimeInfo.end) : null)}</td>
                      <td>
                        <span className={`badge badge--${status.toLowerCase()}`}>
                          {rule.active === false ? 'Off' : STATUS_LABELS[status]}
                        </span>
                      </td>
                      <td>
                        <div className="row-actions">
                          <EditRowButton name={name} onEdit={() => editing.start(rule)} />
                          <ConfirmedRowAction
                            verb="Delete"
                            name={name}
                            title={`Delete the discount rule ${name}?`}
                            description="Carts are no longer discounted by it."
                            confirm="Delete discount rule"
                            mutation={remove}
                            variables={rule.id}
                            onDone={() => {
                              if (editing.id === rule.id) editing.stop();
                              setNotice(`The discount rule ${name} was deleted.`);
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
        editing={editing.record ? (editing.record.name ?? editing.record.id) : undefined}
        addTitle="Add a discount rule"
        addLabel="Create discount rule"
        noun="discount rule"
        busy={save.isPending}
        error={save.error}
        onSubmit={submit}
        onCancel={editing.stop}
      >
        <div className="field-row">
          <div className="field">
            <label htmlFor="rule-name">Rule name</label>
            <input
              id="rule-name"
              aria-invalid={Boolean(errors.name)}
              aria-describedby={errors.name ? 'rule-name-error' : undefined}
              {...register('name', {
                validate: (value) => value.trim() !== '' || 'Name the rule, like Summer sale.',
              })}
            />
            <FieldError id="rule-name-error" message={errors.name?.message} />
          </div>
          <div className="field">
            <label htmlFor="rule-type">Discount</label>
            <select id="rule-type" {...register('discountType')}>
              <option value="PERCENTAGE">Percentage off the cart</option>
              <option value="FIXED_AMOUNT">Amount off the cart</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="rule-value">{type === 'PERCENTAGE' ? 'Percentage' : 'Amount'}</label>
            <input
              id="rule-value"
              inputMode="decimal"
              aria-invalid={Boolean(errors.value)}
              aria-describedby={errors.value ? 'rule-value-error' : undefined}
              {...register('value', {
                validate: (value, all) =>
                  all.discountType === 'PERCENTAGE'
                    ? (/^\d{1,3}(\.\d+)?$/.test(value.trim()) && Number(value) > 0 && Number(value) <= 100) ||
                      'A percentage above 0, at most 100.'
                    : /^\d{1,12}(\.\d{1,6})?$/.test(value.trim()) || 'An amount like 5.00.',
              })}
            />
            <FieldError id="rule-value-error" message={errors.value?.message} />
          </div>
          <div className="field">
            <label htmlFor="rule-minimum">
              Minimum subtotal <span className="muted">(optional)</span>
            </label>
            <input
              id="rule-minimum"
              inputMode="decimal"
              aria-invalid={Boolean(errors.minimumSubtotal)}
              aria-describedby={errors.minimumSubtotal ? 'rule-minimum-error' : undefined}
              {...register('minimumSubtotal', {
                validate: (value) =>
                  value.trim() === '' ||
                  /^\d{1,12}(\.\d{1,6})?$/.test(value.trim()) ||
                  'An amount like 50.00.',
              })}
            />
            <FieldError id="rule-minimum-error" message={errors.minimumSubtotal?.message} />
          </div>
        </div>
        <div className="field-row">
          <div className="field">
            <label htmlFor="rule-start">
              Starts <span className="muted">(optional)</span>
            </label>
            <input
              id="rule-start"
              type="datetime-local"
              aria-invalid={Boolean(errors.start)}
              aria-describedby={errors.start ? 'rule-start-error' : undefined}
              {...register('start')}
            />
            <FieldError id="rule-start-error" message={errors.start?.message} />
          </div>
          <div className="field">
            <label htmlFor="rule-end">
              Ends <span className="muted">(optional)</span>
            </label>
            <input
              id="rule-end"
              type="datetime-local"
              aria-invalid={Boolean(errors.end)}
              aria-describedby={errors.end ? 'rule-end-error' : undefined}
              {...register('end', {
                validate: (value, all) =>
                  !value || !all.start || value > all.start || 'The end comes after the start.',
              })}
            />
            <FieldError id="rule-end-error" message={errors.end?.message} />
          </div>
        </div>
        <label className="check">
          <input type="checkbox" {...register('active')} /> On (carts get it while it is live)
        </label>
      </SettingForm>
    </>
  );
}
