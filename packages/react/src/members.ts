import type {
  BoundModule,
  BulkMemberResult,
  BulkMembersJobProgress,
  Member,
  MemberQuery,
  MemberUpdate,
  members,
  QueryMembersOptions,
} from '@cartwheel/sdk';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type AuthClient, useLoggedIn } from './auth.ts';
import { cartwheelKeys } from './keys.ts';
import { useCartwheel } from './provider.tsx';

/** What the member hooks need of the client: the SDK's `members` module and an `OAuthStrategy`. */
export interface MembersClient extends AuthClient {
  members: BoundModule<typeof members>;
}

export const memberQueries = {
  /**
   * The signed-in member, every field included; `null` without asking when `client.auth` is given and
   * no member is signed in (a sign-out refetches this query before React has seen the sign-out, and a
   * visitor asking for the member is refused with 403).
   */
  current: (client: Pick<MembersClient, 'members'> & Partial<AuthClient>) =>
    queryOptions({
      queryKey: cartwheelKeys.members.current,
      queryFn: async (): Promise<Member | null> =>
        client.auth && !client.auth.loggedIn()
          ? null
          : client.members.getCurrentMember({ fieldsets: ['FULL'] }),
    }),
};

/**
 * The signed-in member: `data` is the member, or undefined while signed out (no request is made for a
 * visitor). Refetched on sign-in, dropped on sign-out.
 */
export function useCurrentMember() {
  const client = useCartwheel<MembersClient>();
  const loggedIn = useLoggedIn();
  const query = useQuery({ ...memberQueries.current(client), enabled: loggedIn });
  return { ...query, data: loggedIn ? (query.data ?? undefined) : undefined, loggedIn };
}

/** `POST /v1/members/my/slug`: the signed-in member's profile address; the new member is cached. */
export function useUpdateCurrentMemberSlug() {
  const client = useCartwheel<MembersClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (slug: string) => client.members.updateCurrentMemberSlug(slug),
    onSuccess: (member) => queryClient.setQueryData<Member>(cartwheelKeys.members.current, member),
  });
}

/** `PATCH /v1/members/{id}` of the signed-in member: only the fields given change. */
export function useUpdateCurrentMember() {
  const client = useCartwheel<MembersClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: MemberUpdate) => {
      const current =
        queryClient.getQueryData<Member>(cartwheelKeys.members.current) ??
        (await queryClient.fetchQuery(memberQueries.current(client)));
      if (!current?.id) throw new Error('No member is signed in');
      return client.members.updateMember(current.id, changes);
    },
    onSuccess: (member) => queryClient.setQueryData<Member>(cartwheelKeys.members.current, member),
  });
}

/** A page of `queryMembers` (filter, search, offset paging): FULL fieldsets need staff or a merchant's key. */
export function useMembersQuery(query: MemberQuery, options: QueryMembersOptions = {}) {
  const client = useCartwheel<MembersClient>();
  return useQuery({
    queryKey: cartwheelKeys.members.query(query, options),
    queryFn: () => client.members.queryMembers(query, options),
    placeholderData: keepPreviousData,
  });
}

/** What a bulk member action did: one result per member, succeeded or failed with the reason. */
export interface BulkMembersOutcome {
  succeeded: number;
  failed: number;
  results: BulkMemberResult[];
}

export type BulkMemberAction = 'approve' | 'block' | 'delete';

const JOB_POLL_MS = 250;

/**
 * Approves, blocks or deletes the given members. Approve and block run as the platform's job (by an
 * id filter), followed until it finishes, `onProgress` told each step; delete answers at once. Every
 * cached member read is stale afterwards.
 */
export function useBulkMembers(onProgress?: (job: BulkMembersJobProgress) => void) {
  const client = useCartwheel<MembersClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      action,
      ids,
    }: {
      action: BulkMemberAction;
      ids: string[];
    }): Promise<BulkMembersOutcome> => {
      if (action === 'delete') {
        const answer = await client.members.bulkDeleteMembers(ids);
        return {
          succeeded: answer.bulkActionMetadata?.totalSuccesses ?? 0,
          failed: answer.bulkActionMetadata?.totalFailures ?? 0,
          results: answer.results ?? [],
        };
      }
      const filter = { id: { $in: ids } };
      const started =
        action === 'approve'
          ? await client.members.bulkApproveMembers(filter)
          : await client.members.bulkBlockMembers(filter);
      if (!started.jobId) throw new Error('The platform started no job for this action.');
      for (;;) {
        const job = await client.members.getBulkMembersJob(started.jobId);
        onProgress?.(job);
        if (job.status === 'FINISHED') {
          return {
            succeeded: job.bulkActionMetadata.totalSuccesses ?? 0,
            failed: job.bulkActionMetadata.totalFailures ?? 0,
            results: job.results,
          };
        }
        await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.members.all }),
  });
}
