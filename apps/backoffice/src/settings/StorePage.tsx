import { useStoreSettings, useUpdateStoreSettings } from '@cartwheel/react';
import type { StoreSettings } from '@cartwheel/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { ChangeError, FieldError, placeViolations } from './common.tsx';

/** The store: its currency, weight unit and whether prices include tax. */
export function StorePage() {
  const settings = useStoreSettings();
  return (
    <>
      <h1>Store</h1>
      {settings.isError ? (
        <ErrorNotice what="the store settings" error={settings.error} retry={() => settings.refetch()} />
      ) : null}
      {settings.isPending ? <p role="status">Loading the store settings…</p> : null}
      {settings.data ? <StoreForm settings={settings.data} /> : null}
    </>
  );
}

function StoreForm({ settings }: { settings: StoreSettings }) {
  const update = useUpdateStoreSettings();
  const [saved, setSaved] = useState<string>();
  const { register, handleSubmit, formState, setError, reset } = useForm<StoreSettings>({
    defaultValues: settings,
  });
  const errors = formState.errors;
  const submit = handleSubmit(async (values) => {
    setSaved(undefined);
    try {
      const answer = await update.mutateAsync({ ...values, currency: values.currency.trim().toUpperCase() });
      reset(answer);
      setSaved('The store settings were saved.');
    } catch (error) {
      placeViolations(error, ['currency', 'weightUnit', 'taxIncludedInPrices'], (field, message) =>
        setError(field as keyof StoreSettings, { message }),
      );
    }
  });
  return (
    <form className="panel" onSubmit={submit} noValidate>
      {saved ? (
        <p className="notice" role="status">
          {saved}
        </p>
      ) : null}
      <ChangeError error={update.error} what="Saving" />
      <div className="field-row">
        <div className="field">
          <label htmlFor="store-currency">Currency</label>
          <input
            id="store-currency"
            maxLength={3}
            aria-invalid={Boolean(errors.currency)}
            aria-describedby={errors.currency ? 'store-currency-error' : 'store-currency-hint'}
            {...register('currency', {
              validate: (value) =>
                /^[A-Za-z]{3}$/.test(value.trim()) || 'A three-letter code like USD or EUR.',
            })}
          />
          <p className="muted hint" id="store-currency-hint">
            ISO 4217 code, like USD.
          </p>
          <FieldError id="store-currency-error" message={errors.currency?.message} />
        </div>
        <div className="field">
          <label htmlFor="store-weight-unit">Weight unit</label>
          <select id="store-weight-unit" {...register('weightUnit')}>
            <option value="KG">Kilograms (kg)</option>
            <option value="LB">Pounds (lb)</option>
          </select>
          <FieldError id="store-weight-unit-error" message={errors.weightUnit?.message} />
        </div>
      </div>
      <label className="check">
        <input type="checkbox" {...register('taxIncludedInPrices')} /> Prices include tax
      </label>
      <FieldError id="store-tax-error" message={errors.taxIncludedInPrices?.message} />
      <p>
        <button className="button button--primary" type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save store settings'}
        </button>
      </p>
    </form>
  );
}
