import { SubmitButton } from '@cartwheel/design';
import { usePaymentSettings, useUpdatePaymentSettings } from '@cartwheel/react';
import type { CaptureMode } from '@cartwheel/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ChangeError, FieldError, Notice, placeViolations, SettingsObjectPage } from './common.tsx';

/** Payments: whether a paid checkout is captured at once or only authorized, to be captured from the order. */
export function PaymentsPage() {
  return (
    <SettingsObjectPage heading="Payments" query={usePaymentSettings()} what="the payment settings">
      {(settings) => <CaptureForm capture={settings.capture} />}
    </SettingsObjectPage>
  );
}

function CaptureForm({ capture }: { capture: CaptureMode }) {
  const update = useUpdatePaymentSettings();
  const [saved, setSaved] = useState<string>();
  const { register, handleSubmit, formState, setError, reset } = useForm<{ capture: CaptureMode }>({
    defaultValues: { capture },
  });
  const submit = handleSubmit(async (values) => {
    setSaved(undefined);
    try {
      const answer = await update.mutateAsync(values);
      reset(answer);
      setSaved(
        answer.capture === 'AUTHORIZE_ONLY'
          ? 'Saved: new orders are only authorized; capture them from the order.'
          : 'Saved: new orders are captured at once.',
      );
    } catch (error) {
      placeViolations(error, ['capture'], (_field, message) => setError('capture', { message }));
    }
  });
  return (
    <form className="panel" onSubmit={submit} noValidate>
      <Notice>{saved}</Notice>
      <ChangeError error={update.error} what="Saving" />
      <fieldset aria-describedby={formState.errors.capture ? 'capture-error' : undefined}>
        <legend>When a buyer pays</legend>
        <label className="check">
          <input type="radio" value="IMMEDIATE" {...register('capture')} /> Capture the payment at once
        </label>
        <label className="check">
          <input type="radio" value="AUTHORIZE_ONLY" {...register('capture')} /> Authorize only (capture it
          later from the order)
        </label>
        <FieldError id="capture-error" message={formState.errors.capture?.message} />
      </fieldset>
      <SubmitButton pending={update.isPending} pendingText="Saving…">
        Save payment settings
      </SubmitButton>
    </form>
  );
}
