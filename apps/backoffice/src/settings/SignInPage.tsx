import { CheckboxField, SubmitButton } from '@cartwheel/design';
import { useIdentitySettings, useUpdateIdentitySettings } from '@cartwheel/react';
import type { IdentitySettings } from '@cartwheel/sdk';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ChangeError, Notice, placeViolations, SettingsObjectPage } from './common.tsx';

/** The form's view of the settings: the captcha as a box to tick. */
interface SignInForm {
  requireStaffSecondStep: boolean;
  requireEmailVerification: boolean;
  requireOwnerApproval: boolean;
  captcha: boolean;
}

const formOf = (settings: IdentitySettings): SignInForm => ({
  requireStaffSecondStep: settings.requireStaffSecondStep,
  requireEmailVerification: settings.requireEmailVerification,
  requireOwnerApproval: settings.requireOwnerApproval,
  captcha: settings.captcha === 'required',
});

/**
 * Sign-in: whether the owner and staff who move money pass a second step at every sign-in, and how
 * new members join (email confirmed, the owner's approval, a captcha).
 */
export function SignInSettingsPage() {
  return (
    <SettingsObjectPage heading="Sign-in" query={useIdentitySettings()} what="the sign-in settings">
      {(settings) => <SignInSettingsForm settings={settings} />}
    </SettingsObjectPage>
  );
}

function SignInSettingsForm({ settings }: { settings: IdentitySettings }) {
  const update = useUpdateIdentitySettings();
  const [saved, setSaved] = useState<string>();
  const { register, handleSubmit, setError, reset, formState } = useForm<SignInForm>({
    defaultValues: formOf(settings),
  });
  const submit = handleSubmit(async (values) => {
    setSaved(undefined);
    try {
      const answer = await update.mutateAsync({ ...values, captcha: values.captcha ? 'required' : 'off' });
      reset(formOf(answer));
      setSaved(
        answer.requireStaffSecondStep
          ? 'Saved: the owner and staff who move money now take a second step at every sign-in.'
          : 'The sign-in settings were saved.',
      );
    } catch (error) {
      placeViolations(error, Object.keys(formOf(settings)), (field, message) =>
        setError(field as keyof SignInForm, { message }),
      );
    }
  });
  const errors = formState.errors;
  return (
    <form className="panel" onSubmit={submit} noValidate>
      <Notice>{saved}</Notice>
      <ChangeError error={update.error} what="Saving" />
      <h2>Staff</h2>
      <CheckboxField
        label="Require two-step sign-in for the owner and staff who move money"
        hint="Staff whose role can capture, void or refund payments enter a code from their authenticator app, or one we email them, after their password."
        error={errors.requireStaffSecondStep?.message}
        {...register('requireStaffSecondStep')}
      />
      <h2>New members</h2>
      <CheckboxField
        label="Members confirm their email with a code before they can sign in"
        error={errors.requireEmailVerification?.message}
        {...register('requireEmailVerification')}
      />
      <CheckboxField
        label="New members wait for your approval"
        error={errors.requireOwnerApproval?.message}
        {...register('requireOwnerApproval')}
      />
      <CheckboxField
        label="Ask for a captcha at every sign-up and sign-in"
        error={errors.captcha?.message}
        {...register('captcha')}
      />
      <SubmitButton pending={update.isPending} pendingText="Saving…">
        Save sign-in settings
      </SubmitButton>
    </form>
  );
}
