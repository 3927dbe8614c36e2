import { CheckboxField, Field, SelectField, SubmitButton } from '@cartwheel/design';
import { useStoreSettings, useUpdateStoreSettings } from '@cartwheel/react';
import type { StoreSettings } from '@cartwheel/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ChangeError, Notice, placeViolations, SettingsObjectPage } from './common.tsx';

/** The store: its currency, weight unit and whether prices include tax. */
export function StorePage() {
  return (
    <SettingsObjectPage heading="Store" query={useStoreSettings()} what="the store settings">
      {(settings) => <StoreForm settings={settings} />}
    </SettingsObjectPage>
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
      <Notice>{saved}</Notice>
      <ChangeError error={update.error} what="Saving" />
      <div className="field-row">
        <Field
          label="Currency"
          maxLength={3}
          hint="ISO 4217 code, like USD."
          announce
          error={errors.currency?.message}
          {...register('currency', {
            validate: (value) => /^[A-Za-z]{3}$/.test(value.trim()) || 'A three-letter code like USD or EUR.',
          })}
        />
        <SelectField
          label="Weight unit"
          announce
          error={errors.weightUnit?.message}
          {...register('weightUnit')}
        >
          <option value="KG">Kilograms (kg)</option>
          <option value="LB">Pounds (lb)</option>
        </SelectField>
      </div>
      <CheckboxField
        label="Prices include tax"
        announce
        error={errors.taxIncludedInPrices?.message}
        {...register('taxIncludedInPrices')}
      />
      <p>
        <SubmitButton pending={update.isPending} pendingText="Saving…">
          Save store settings
        </SubmitButton>
      </p>
    </form>
  );
}
