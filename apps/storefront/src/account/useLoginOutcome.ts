import type { LoginResult } from '@cartwheel/sdk';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { type AccountFlow, loginFailureMessage } from './messages.ts';
import { useReturnTo } from './return-to.ts';

export type VerificationRequired = Extract<LoginResult, { loginState: 'EMAIL_VERIFICATION_REQUIRED' }>;

/**
 * What a sign-in or sign-up form does with a login state (point 4): SUCCESS goes back to where the
 * shopper was; a code step, an approval notice or a failure message shows in place.
 */
export function useLoginOutcome(flow: AccountFlow) {
  const navigate = useNavigate();
  const returnTo = useReturnTo();
  const [verification, setVerification] = useState<VerificationRequired>();
  const [awaitingApproval, setAwaitingApproval] = useState(false);
  const [problem, setProblem] = useState<string>();

  const handle = (result: LoginResult) => {
    setProblem(undefined);
    switch (result.loginState) {
      case 'SUCCESS':
        setVerification(undefined);
        navigate(returnTo, { replace: true });
        return;
      case 'EMAIL_VERIFICATION_REQUIRED':
        setVerification(result);
        return;
      case 'OWNER_APPROVAL_REQUIRED':
        setVerification(undefined);
        setAwaitingApproval(true);
        return;
      case 'FAILURE':
        setProblem(loginFailureMessage(result, flow));
        return;
      default:
        setProblem(
          'Signing in needs a step this page can\u2019t do. Continue with the store\u2019s login page instead.',
        );
    }
  };

  return { handle, verification, awaitingApproval, problem, setProblem };
}
