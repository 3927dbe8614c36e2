import { Field } from '@cartwheel/design';
import {
  useCollections,
  useDeleteDiscountRule,
  useDiscountRules,
  useProducts,
  useSaveDiscountRule,
} from '@cartwheel/react';
import type { DiscountRule, DiscountRuleStatus } from '@cartwheel/sdk';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import {
  ConfirmedRowAction,
  EditRowButton,
  FieldError,
  formatDate,
  placeViolations,
  SettingForm,
  useEditing,
} from './common.tsx';
import {
  checks,
  describeRule,
  EMPTY_RULE,
  moreThanTheFormShows,
  type RuleFormValues,
  ruleOf,
  scopeIdsOf,
  valuesOf,
} from './discount-rule-form.ts';

// the pickers bring React Aria's combobox: loaded with the first rule scoped to items, not before
const ScopePicker = lazy(() => import('./ScopePicker.tsx'));

const STATUS_LABELS: Record<DiscountRuleStatus, string> = {
  LIVE: 'Live',
  PENDING: 'Pending',
  EXPIRED: 'Expired',
};

const VALUE_LABELS: Record<RuleFormValues['discountType'], string> = {
  PERCENTAGE: 'Percentage',
  FIXED_AMOUNT: 'Amount',
  FIXED_PRICE: 'Price per item',
};

type SavedRule = DiscountRule & { id: string };

/** The platform's field violations, by the last part of their path, and the form field each marks. */
const VIOLATION_FIELDS: Record<string, keyof RuleFormValues> = {
  name: 'name',
  percentage: 'value',
  fixedAmount: 'value',
  fixedPrice: 'value',
  'subtotalRange.from': 'minimumSubtotal',
  'itemQuantityRange.from': 'minimumQuantity',
  start: 'start',
  end: 'end',
  catalogItemIds: 'productIds',
  collectionIds: 'productIds',
};

/** The names of the products and collections the rules are scoped to, for the list. */
function useScopeNames(rules: readonly DiscountRule[] | undefined): (id: string) => string | undefined {
  const productIds = useMemo(
    () => [...new Set((rules ?? []).flatMap((rule) => scopeIdsOf(rule.discounts?.values?.[0]).productIds))],
    [rules],
  );
  const products = useProducts(
    { filter: { id: { $in: productIds.slice(0, 100) } }, paging: { limit: 100 } },
    { merchant: true, enabled: productIds.length > 0 },
  );
  const collections = useCollections({ paging: { limit: 100 } });
  return useMemo(() => {
    const names = new Map<string, string>();
    for (const item of products.data?.items ?? []) if (item.id && item.name) names.set(item.id, item.name);
    for (const item of collections.data?.items ?? []) if (item.id && item.name) names.set(item.id, item.name);
    return (id: string) => names.get(id);
  }, [products.data, collections.data]);
}

/**
 * Discount rules: automatic discounts, each LIVE, PENDING (its window has not started) or EXPIRED as
 * the platform derives from `activeTimeInfo`. A rule takes a percentage, an amount or a fixed price per
 * item off the entire cart, off chosen products and collections, or off shipping, when the cart reaches
 * a minimum subtotal or number of items. Carts are priced with the live ones.
 */
export function DiscountRulesPage() {
  const rules = useDiscountRules();
  const save = useSaveDiscountRule();
  const remove = useDeleteDiscountRule();
  const nameOf = useScopeNames(rules.data);
  const [notice, setNotice] = useState<string>();
  const { register, handleSubmit, formState, setError, reset, watch, control, setValue } =
    useForm<RuleFormValues>({
      defaultValues: EMPTY_RULE,
    });
  const editing = useEditing<SavedRule, RuleFormValues>(reset, EMPTY_RULE, valuesOf);
  const errors = formState.errors;
  const type = watch('discountType');
  const target = watch('target');
  // shipping has no fixed price per item: the select no longer offers it, so neither does the form
  useEffect(() => {
    if (target === 'SHIPPING' && type === 'FIXED_PRICE') setValue('discountType', 'PERCENTAGE');
  }, [target, type, setValue]);
  const submit = handleSubmit(async (values) => {
    setNotice(undefined);
    try {
      const rule = await save.mutateAsync({ id: editing.id, discountRule: ruleOf(values) });
      setNotice(`The discount rule ${rule.name} was ${editing.id ? 'saved' : 'created'}.`);
      editing.stop();
    } catch (error) {
      placeViolations(error, Object.keys(VIOLATION_FIELDS), (field, message) =>
        setError(VIOLATION_FIELDS[field] as keyof RuleFormValues, { message }),
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
                      <td>{describeRule(rule, nameOf)}</td>
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
        {editing.record && moreThanTheFormShows(editing.record) ? (
          <p className="alert" role="note">
            This rule was made with more than this form shows (several discounts or other conditions): saving
            keeps only what is below.
          </p>
        ) : null}
        <div className="field-row">
          <Field
            id="rule-name"
            label="Rule name"
            error={errors.name?.message}
            {...register('name', { validate: checks.name })}
          />
          <div className="field">
            <label htmlFor="rule-target">Applies to</label>
            <select id="rule-target" {...register('target', { deps: ['value', 'productIds'] })}>
              <option value="ENTIRE_CART">The entire cart</option>
              <option value="SPECIFIC_ITEMS">Specific products or collections</option>
              <option value="SHIPPING">Shipping</option>
            </select>
          </div>
        </div>
        {target === 'SPECIFIC_ITEMS' ? (
          <fieldset className="rule-scope">
            <legend>Products and collections it takes off</legend>
            <Suspense fallback={<p role="status">Loading the pickers…</p>}>
              <div className="field-row">
                <Controller
                  control={control}
                  name="productIds"
                  rules={{ validate: (_, all) => checks.scope(all) }}
                  render={({ field }) => (
                    <ScopePicker
                      kind="product"
                      label="Products"
                      value={field.value}
                      onChange={field.onChange}
                      invalid={Boolean(errors.productIds)}
                      describedBy={errors.productIds ? 'rule-scope-error' : undefined}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name="collectionIds"
                  render={({ field }) => (
                    <ScopePicker
                      kind="collection"
                      label="Collections"
                      value={field.value}
                      onChange={field.onChange}
                      invalid={Boolean(errors.productIds)}
                      describedBy={errors.productIds ? 'rule-scope-error' : undefined}
                    />
                  )}
                />
              </div>
            </Suspense>
            <FieldError id="rule-scope-error" message={errors.productIds?.message} />
          </fieldset>
        ) : null}
        <div className="field-row">
          <div className="field">
            <label htmlFor="rule-type">Discount</label>
            <select id="rule-type" {...register('discountType', { deps: ['value'] })}>
              <option value="PERCENTAGE">Percentage off</option>
              <option value="FIXED_AMOUNT">Amount off</option>
              {target === 'SHIPPING' ? null : <option value="FIXED_PRICE">Fixed price per item</option>}
            </select>
          </div>
          <Field
            id="rule-value"
            label={VALUE_LABELS[type]}
            inputMode="decimal"
            hint={
              type === 'FIXED_AMOUNT' && target === 'SPECIFIC_ITEMS'
                ? 'Taken off the matching items together.'
                : type === 'FIXED_PRICE'
                  ? 'Each matching item sells at this price.'
                  : undefined
            }
            error={errors.value?.message}
            {...register('value', { validate: checks.value })}
          />
        </div>
        <div className="field-row">
          <Field
            id="rule-minimum"
            label="Minimum subtotal"
            optional
            inputMode="decimal"
            error={errors.minimumSubtotal?.message}
            {...register('minimumSubtotal', { validate: checks.minimumSubtotal })}
          />
          <Field
            id="rule-quantity"
            label="Minimum number of items"
            optional
            inputMode="numeric"
            error={errors.minimumQuantity?.message}
            {...register('minimumQuantity', { validate: checks.minimumQuantity })}
          />
        </div>
        <div className="field-row">
          <Field
            id="rule-start"
            label="Starts"
            optional
            type="datetime-local"
            error={errors.start?.message}
            {...register('start', { deps: ['end'] })}
          />
          <Field
            id="rule-end"
            label="Ends"
            optional
            type="datetime-local"
            error={errors.end?.message}
            {...register('end', { validate: checks.end })}
          />
        </div>
        <label className="check">
          <input type="checkbox" {...register('active')} /> On (carts get it while it is live)
        </label>
      </SettingForm>
    </>
  );
}
