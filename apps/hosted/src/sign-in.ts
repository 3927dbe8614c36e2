import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { type AuthorizationRequest, continuationUrl, localPath, startOwnFlow } from './authorization.ts';
import { useHostedConfig } from './components/HostedConfig.ts';
import { type SignInStep, savePendingVerification } from './identity.ts';

/**
 * What happens after a login, registration, code or reset answered: a signed-in member goes back to
 * the authorization endpoint with the session token; a member who must verify their email goes to
 * `/auth/verify`. Other steps are the page's to show, so they come back to it.
 */
export function useContinueSignIn() {
  const navigate = useNavigate();
  const config = useHostedConfig();
  return useCallback(
    async (
      step: SignInStep,
      context: { request: AuthorizationRequest | undefined; email: string; returnTo?: string | null },
    ): Promise<SignInStep | undefined> => {
      const clientId = context.request?.clientId ?? config.clientId;
      if (step.step === 'signed-in') {
        const request =
          context.request ??
          (await startOwnFlow(window.location.origin, clientId, localPath(context.returnTo)));
        window.location.assign(continuationUrl(request, step.sessionToken));
        return undefined;
      }
      if (step.step === 'verify-email') {
        savePendingVerification({
          stateToken: step.stateToken,
          clientId,
          email: context.email,
          request: context.request?.params.toString() ?? '',
        });
        navigate(`/verify${context.request ? `?${context.request.params.toString()}` : ''}`);
        return undefined;
      }
      return step;
    },
    [navigate, config.clientId],
  );
}
