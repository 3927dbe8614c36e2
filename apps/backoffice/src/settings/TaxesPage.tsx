import { CheckboxField, Field } from '@cartwheel/design';
import { useCreateTaxRegion, useDeleteTaxRegion, useTaxRegions, useUpdateTaxRegion } from '@cartwheel/react';
import type { TaxRegion } from '@cartwheel/sdk';
import { CountryField, filledIn, placeViolations, SettingListPage, useSettingList } from './common.tsx';

interface TaxFormValues {
  name: string;
  country: string;
  subdivision: string;
  /** Percent as the merchant types it: `8.875`. */
  percent: string;
  taxShipping: boolean;
}

const EMPTY: TaxFormValues = { name: '', country: '', subdivision: '', percent: '', taxShipping: false };

/** `8.875` percent as the platform's rate `"0.08875"`, exactly (no float on the way). */
export function rateOf(percent: string): string {
  const [whole = '0', fraction = ''] = percent.trim().split('.');
  const digits = `${whole.padStart(3, '0')}${fraction}`;
  const rate = `${digits.slice(0, digits.length - fraction.length - 2)}.${digits.slice(-fraction.length - 2)}`;
  return rate.replace(/^0+(?=\d)/, '').replace(/\.?0+$/, '') || '0';
}

const percentOf = (rate: string) => `${Number((Number(rate) * 100).toFixed(6))}%`;

const valuesOf = (region: TaxRegion): TaxFormValues => ({
  name: region.name,
  country: region.country,
  subdivision: region.subdivision?.replace(/^[A-Z]{2}-/, '') ?? '',
  percent: percentOf(region.rate).slice(0, -1),
  taxShipping: region.taxShipping,
});

/** Taxes by region: a country, or one of its subdivisions, at a rate. */
export function TaxesPage() {
  const regions = useTaxRegions();
  const create = useCreateTaxRegion();
  const update = useUpdateTaxRegion();
  const remove = useDeleteTaxRegion();
  const { notice, setNotice, form, editing, errors } = useSettingList<TaxRegion, TaxFormValues>(
    EMPTY,
    valuesOf,
  );
  const { register, handleSubmit, setError } = form;
  const submit = handleSubmit(async (values) => {
    setNotice(undefined);
    const country = values.country.trim().toUpperCase();
    const subdivision = values.subdivision.trim().toUpperCase();
    try {
      const taxRegion = {
        name: values.name.trim(),
        country,
        subdivision:
          subdivision === '' ? null : subdivision.includes('-') ? subdivision : `${country}-${subdivision}`,
        rate: rateOf(values.percent),
        taxShipping: values.taxShipping,
      };
      const region = editing.id
        ? await update.mutateAsync({ id: editing.id, taxRegion })
        : await create.mutateAsync(taxRegion);
      setNotice(`Tax for ${region.name} was ${editing.id ? 'saved' : 'added'}.`);
      editing.stop();
    } catch (error) {
      placeViolations(error, ['name', 'country', 'subdivision', 'rate', 'taxShipping'], (field, message) =>
        setError(field === 'rate' ? 'percent' : (field as keyof TaxFormValues), { message }),
      );
    }
  });
  return (
    <SettingListPage
      heading="Taxes"
      notice={notice}
      title="Tax regions"
      query={regions}
      what="the tax regions"
      empty="No taxes yet: add a region below."
      nameHeader="Region"
      nameOf={(region) => region.name}
      columns={[
        { header: 'Where', cell: (region) => region.subdivision ?? region.country },
        { header: 'Rate', cell: (region) => percentOf(region.rate) },
        { header: 'Shipping taxed', cell: (region) => (region.taxShipping ? 'Yes' : 'No') },
      ]}
      editing={editing}
      remove={{
        mutation: remove,
        title: (region) => `Stop taxing ${region.name}?`,
        description: 'Checkouts to this region are no longer taxed by it.',
        confirm: 'Delete tax region',
        done: (region) => setNotice(`Tax for ${region.name} was deleted.`),
      }}
      form={{
        addTitle: 'Add a tax region',
        addLabel: 'Add tax region',
        noun: 'tax region',
        busy: create.isPending || update.isPending,
        error: editing.id ? update.error : create.error,
        onSubmit: submit,
      }}
    >
      <div className="field-row">
        <Field
          label="Name on receipts"
          announce
          error={errors.name?.message}
          {...register('name', {
            validate: filledIn('Name the region, like New York.'),
          })}
        />
        <CountryField register={register} error={errors.country?.message} />
        <Field
          label="State or province"
          optional
          hint="Its code, like NY; empty for the whole country."
          announce
          error={errors.subdivision?.message}
          {...register('subdivision')}
        />
        <Field
          label="Rate (%)"
          inputMode="decimal"
          announce
          error={errors.percent?.message}
          {...register('percent', {
            validate: (value) =>
              (/^\d{1,3}(\.\d{1,6})?$/.test(value.trim()) && Number(value) <= 100) ||
              'A percentage like 8.875.',
          })}
        />
      </div>
      <CheckboxField label="Tax shipping too" {...register('taxShipping')} />
    </SettingListPage>
  );
}
