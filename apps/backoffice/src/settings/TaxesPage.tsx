import { useCreateTaxRegion, useDeleteTaxRegion, useTaxRegions, useUpdateTaxRegion } from '@cartwheel/react';
import type { TaxRegion } from '@cartwheel/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import {
  ConfirmedRowAction,
  countryCode,
  EditRowButton,
  FieldError,
  placeViolations,
  SettingForm,
  useEditing,
} from './common.tsx';

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
  const [notice, setNotice] = useState<string>();
  const { register, handleSubmit, formState, setError, reset } = useForm<TaxFormValues>({
    defaultValues: EMPTY,
  });
  const editing = useEditing<TaxRegion, TaxFormValues>(reset, EMPTY, valuesOf);
  const errors = formState.errors;
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
    <>
      <h1>Taxes</h1>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <section className="panel" aria-labelledby="tax-regions-title">
        <h2 id="tax-regions-title">Tax regions</h2>
        {regions.isError ? (
          <ErrorNotice what="the tax regions" error={regions.error} retry={() => regions.refetch()} />
        ) : null}
        {regions.data?.length === 0 ? <p className="muted">No taxes yet: add a region below.</p> : null}
        {regions.data?.length ? (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Tax regions</caption>
              <thead>
                <tr>
                  <th scope="col">Region</th>
                  <th scope="col">Where</th>
                  <th scope="col">Rate</th>
                  <th scope="col">Shipping taxed</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {regions.data.map((region) => (
                  <tr key={region.id}>
                    <th scope="row">{region.name}</th>
                    <td>{region.subdivision ?? region.country}</td>
                    <td>{percentOf(region.rate)}</td>
                    <td>{region.taxShipping ? 'Yes' : 'No'}</td>
                    <td>
                      <div className="row-actions">
                        <EditRowButton name={region.name} onEdit={() => editing.start(region)} />
                        <ConfirmedRowAction
                          verb="Delete"
                          name={region.name}
                          title={`Stop taxing ${region.name}?`}
                          description="Checkouts to this region are no longer taxed by it."
                          confirm="Delete tax region"
                          mutation={remove}
                          variables={region.id}
                          onDone={() => {
                            if (editing.id === region.id) editing.stop();
                            setNotice(`Tax for ${region.name} was deleted.`);
                          }}
                        />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      <SettingForm
        editing={editing.record?.name}
        addTitle="Add a tax region"
        addLabel="Add tax region"
        noun="tax region"
        busy={create.isPending || update.isPending}
        error={editing.id ? update.error : create.error}
        onSubmit={submit}
        onCancel={editing.stop}
      >
        <div className="field-row">
          <div className="field">
            <label htmlFor="tax-name">Name on receipts</label>
            <input
              id="tax-name"
              aria-invalid={Boolean(errors.name)}
              aria-describedby={errors.name ? 'tax-name-error' : undefined}
              {...register('name', {
                validate: (value) => value.trim() !== '' || 'Name the region, like New York.',
              })}
            />
            <FieldError id="tax-name-error" message={errors.name?.message} />
          </div>
          <div className="field">
            <label htmlFor="tax-country">Country code</label>
            <input
              id="tax-country"
              maxLength={2}
              aria-invalid={Boolean(errors.country)}
              aria-describedby={errors.country ? 'tax-country-error' : undefined}
              {...register('country', { validate: countryCode })}
            />
            <FieldError id="tax-country-error" message={errors.country?.message} />
          </div>
          <div className="field">
            <label htmlFor="tax-subdivision">
              State or province <span className="muted">(optional)</span>
            </label>
            <input
              id="tax-subdivision"
              aria-invalid={Boolean(errors.subdivision)}
              aria-describedby={errors.subdivision ? 'tax-subdivision-error' : 'tax-subdivision-hint'}
              {...register('subdivision')}
            />
            <p className="muted hint" id="tax-subdivision-hint">
              Its code, like NY; empty for the whole country.
            </p>
            <FieldError id="tax-subdivision-error" message={errors.subdivision?.message} />
          </div>
          <div className="field">
            <label htmlFor="tax-percent">Rate (%)</label>
            <input
              id="tax-percent"
              inputMode="decimal"
              aria-invalid={Boolean(errors.percent)}
              aria-describedby={errors.percent ? 'tax-percent-error' : undefined}
              {...register('percent', {
                validate: (value) =>
                  (/^\d{1,3}(\.\d{1,6})?$/.test(value.trim()) && Number(value) <= 100) ||
                  'A percentage like 8.875.',
              })}
            />
            <FieldError id="tax-percent-error" message={errors.percent?.message} />
          </div>
        </div>
        <label className="check">
          <input type="checkbox" {...register('taxShipping')} /> Tax shipping too
        </label>
      </SettingForm>
    </>
  );
}
