import type { BoundModule, SecondFactors, SecondFactorType, secondFactors } from '@cartwheel/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLoggedIn } from './auth.ts';
import { cartwheelKeys } from './keys.ts';
import { useCartwheel } from './provider.tsx';

/** What the second-step hooks need of the client: the SDK's `secondFactors` module (Cartwheel's own). */
export interface SecondFactorsClient {
  secondFactors: BoundModule<typeof secondFactors>;
}

/** The signed-in member's second factors and recovery codes left; nothing is asked while signed out. */
export function useSecondFactors() {
  const client = useCartwheel<SecondFactorsClient>();
  const loggedIn = useLoggedIn();
  return useQuery({
    queryKey: cartwheelKeys.members.secondFactors,
    queryFn: (): Promise<SecondFactors> => client.secondFactors.list(),
    enabled: loggedIn,
  });
}

/**
 * The second step's changes: `enrol` (an authenticator's secret and link, or a code by email),
 * `activate` with a code (answers the recovery codes, shown once), `remove`, `newRecoveryCodes`. Each
 * refreshes the factors' status; each needs a recent sign-in (`RECENT_SIGN_IN_REQUIRED` otherwise).
 */
export function useSecondFactorChanges() {
  const client = useCartwheel<SecondFactorsClient>();
  const queryClient = useQueryClient();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.members.secondFactors });
  return {
    enrol: useMutation({
      mutationFn: (type: SecondFactorType) => client.secondFactors.enrol(type),
      onSettled,
    }),
    activate: useMutation({
      mutationFn: ({ type, code }: { type: SecondFactorType; code: string }) =>
        client.secondFactors.activate(type, code),
      onSettled,
    }),
    remove: useMutation({
      mutationFn: (type: SecondFactorType) => client.secondFactors.remove(type),
      onSettled,
    }),
    newRecoveryCodes: useMutation({
      mutationFn: () => client.secondFactors.newRecoveryCodes(),
      onSettled,
    }),
  };
}
