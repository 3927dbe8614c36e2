import { FormAlert } from '@cartwheel/design';
import { useAuth } from '@cartwheel/react';
import { useState } from 'react';
import { unexpectedFailureMessage } from './messages.ts';
import { useReturnTo } from './return-to.ts';

/** Where the store's login page sends the shopper back with the code. */
export const CALLBACK_PATH = '/account/callback';

/**
 * "Continue with the store's login page": the platform's hosted page signs the shopper in (any
 * captcha or second step included) and comes back to {@link CALLBACK_PATH} with a code.
 */
export function HostedLoginButton() {
  const { loginWithRedirect } = useAuth();
  const returnTo = useReturnTo();
  const [problem, setProblem] = useState<string>();

  const go = async () => {
    setProblem(undefined);
    try {
      const { authUrl } = await loginWithRedirect.mutateAsync({
        redirectUri: `${window.location.origin}${CALLBACK_PATH}`,
        originalUri: returnTo,
        prompt: 'login',
        responseMode: 'query',
      });
      window.location.assign(authUrl);
    } catch (error) {
      setProblem(unexpectedFailureMessage(error));
    }
  };

  return (
    <>
      <button
        type="button"
        className="button button--secondary"
        onClick={() => void go()}
        disabled={loginWithRedirect.isPending}
      >
        Continue with the store’s login page
      </button>
      <FormAlert>{problem}</FormAlert>
    </>
  );
}
