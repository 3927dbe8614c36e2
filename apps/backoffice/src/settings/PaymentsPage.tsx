import { type RadioChoice, RadioGroupField, SubmitButton } from '@cartwheel/design';
import { usePaymentSettings, useUpdatePaymentSettings } from '@cartwheel/react';
import type { CaptureMode } from '@cartwheel/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ChangeError, Notice, placeViolations, SettingsObjectPage } from './common.tsx';

const CAPTURE_MODES: ReadonlyArray<RadioChoice<CaptureMode>> = [
  { value: 'IMMEDIATE', label: 'Capture the payment at once' },
  { value: 'AUTHORIZE_ONLY', label: 'Authorize only (capture it later from the order)' },
];

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
      <RadioGroupField
        legend="When a buyer pays"
        options={CAPTURE_MODES}
        error={formState.errors.capture?.message}
        announce
        {...register('capture')}
      />
      <SubmitButton pending={update.isPending} pendingText="Saving…">
        Save payment settings
      </SubmitButton>
    </form>
  );
}
