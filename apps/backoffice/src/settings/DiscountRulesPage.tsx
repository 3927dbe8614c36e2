import { CheckboxField, Field, FieldGroup, type FieldProps, SelectField } from '@cartwheel/design';
import {
  useCollections,
  useDeleteDiscountRule,
  useDiscountRules,
  useProducts,
  useSaveDiscountRule,
} from '@cartwheel/react';
import type { DiscountRule, DiscountRuleStatus } from '@cartwheel/sdk';
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { Controller, type Validate } from 'react-hook-form';
import { FieldError, formatDate, placeViolations, SettingListPage, useSettingList } from './common.tsx';
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

/** The two pickers of a rule's scope, each the form's list of chosen ids. */
const SCOPE_PICKERS = [
  { name: 'productIds', kind: 'product', label: 'Products' },
  { name: 'collectionIds', kind: 'collection', label: 'Collections' },
] as const;

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

/** A rule's window bound as the list says it: its moment, or a dash for none. */
const boundOf = (moment: Date | string | undefined | null) => formatDate(moment ? String(moment) : null);

function statusBadge(rule: DiscountRule) {
  const status = rule.status ?? 'LIVE';
  return (
    <span className={`badge badge--${status.toLowerCase()}`}>
      {rule.active === false ? 'Off' : STATUS_LABELS[status]}
    </span>
  );
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
  const scopeName = useScopeNames(rules.data);
  const { notice, setNotice, form, editing, errors } = useSettingList<SavedRule, RuleFormValues>(
    EMPTY_RULE,
    valuesOf,
  );
  const { register, handleSubmit, setError, watch, control, setValue } = form;
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
  /** One of the rule's conditions, each optional (the minimums, the window), with the form's check of it. */
  const condition = (
    name: 'minimumSubtotal' | 'minimumQuantity' | 'start' | 'end',
    label: string,
    control: Pick<FieldProps, 'inputMode' | 'type'>,
    options: { validate?: Validate<string, RuleFormValues>; deps?: Array<keyof RuleFormValues> },
  ) => (
    <Field label={label} optional {...control} error={errors[name]?.message} {...register(name, options)} />
  );
  return (
    <SettingListPage
      heading="Discount rules"
      notice={notice}
      title="Discount rules"
      // a listed rule has its id: the platform gives every saved rule one
      query={rules as typeof rules & { data: SavedRule[] | undefined }}
      what="the discount rules"
      empty="No discount rules yet: add one below and carts get it automatically."
      nameHeader="Name"
      nameOf={(rule) => rule.name ?? rule.id}
      columns={[
        { header: 'Discount', cell: (rule) => describeRule(rule, scopeName) },
        { header: 'Starts', cell: (rule) => boundOf(rule.activeTimeInfo?.start) },
        { header: 'Ends', cell: (rule) => boundOf(rule.activeTimeInfo?.end) },
        { header: 'Status', cell: statusBadge },
      ]}
      editing={editing}
      remove={{
        mutation: remove,
        title: (rule) => `Delete the discount rule ${rule.name ?? rule.id}?`,
        description: 'Carts are no longer discounted by it.',
        confirm: 'Delete discount rule',
        done: (rule) => setNotice(`The discount rule ${rule.name ?? rule.id} was deleted.`),
      }}
      form={{
        addTitle: 'Add a discount rule',
        addLabel: 'Create discount rule',
        noun: 'discount rule',
        busy: save.isPending,
        error: save.error,
        onSubmit: submit,
      }}
    >
      {editing.record && moreThanTheFormShows(editing.record) ? (
        <p className="form-alert" role="note">
          This rule was made with more than this form shows (several discounts or other conditions): saving
          keeps only what is below.
        </p>
      ) : null}
      <div className="field-row">
        <Field
          label="Rule name"
          error={errors.name?.message}
          {...register('name', { validate: checks.name })}
        />
        <SelectField label="Applies to" {...register('target', { deps: ['value', 'productIds'] })}>
          <option value="ENTIRE_CART">The entire cart</option>
          <option value="SPECIFIC_ITEMS">Specific products or collections</option>
          <option value="SHIPPING">Shipping</option>
        </SelectField>
      </div>
      {target === 'SPECIFIC_ITEMS' ? (
        <FieldGroup bordered legend="Products and collections it takes off">
          <Suspense fallback={<p role="status">Loading the pickers…</p>}>
            <div className="field-row">
              {SCOPE_PICKERS.map((picker) => (
                <Controller
                  key={picker.name}
                  control={control}
                  name={picker.name}
                  // one check for both (a scoped rule needs a product or a collection), shown under both
                  rules={picker.name === 'productIds' ? { validate: (_, all) => checks.scope(all) } : {}}
                  render={({ field }) => (
                    <ScopePicker
                      kind={picker.kind}
                      label={picker.label}
                      value={field.value}
                      onChange={field.onChange}
                      invalid={Boolean(errors.productIds)}
                      describedBy={errors.productIds ? 'rule-scope-error' : undefined}
                    />
                  )}
                />
              ))}
            </div>
          </Suspense>
          <FieldError id="rule-scope-error" message={errors.productIds?.message} />
        </FieldGroup>
      ) : null}
      <div className="field-row">
        <SelectField label="Discount" {...register('discountType', { deps: ['value'] })}>
          <option value="PERCENTAGE">Percentage off</option>
          <option value="FIXED_AMOUNT">Amount off</option>
          {target === 'SHIPPING' ? null : <option value="FIXED_PRICE">Fixed price per item</option>}
        </SelectField>
        <Field
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
        {condition(
          'minimumSubtotal',
          'Minimum subtotal',
          { inputMode: 'decimal' },
          { validate: checks.minimumSubtotal },
        )}
        {condition(
          'minimumQuantity',
          'Minimum number of items',
          { inputMode: 'numeric' },
          { validate: checks.minimumQuantity },
        )}
      </div>
      <div className="field-row">
        {condition('start', 'Starts', { type: 'datetime-local' }, { deps: ['end'] })}
        {condition('end', 'Ends', { type: 'datetime-local' }, { validate: checks.end })}
      </div>
      <CheckboxField label="On (carts get it while it is live)" {...register('active')} />
    </SettingListPage>
  );
}
