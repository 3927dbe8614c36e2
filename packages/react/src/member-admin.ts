import type { Member, MemberFieldset } from '@cartwheel/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { cartwheelKeys } from './keys.ts';
import type { MembersClient } from './members.ts';
import { useCartwheel } from './provider.tsx';

/** A member's status actions as the staff take them, one call each. */
export type MemberStatusAction = 'approve' | 'block' | 'mute' | 'unmute' | 'disconnect';

const memberKey = (id: string, fieldsets: MemberFieldset[]) =>
  [...cartwheelKeys.members.all, 'byId', id, fieldsets] as const;

/** One member as staff (or a merchant's key) reads them: `FULL` by default, contact and addresses included. */
export function useMember(id: string | undefined, fieldsets: MemberFieldset[] = ['FULL']) {
  const client = useCartwheel<Pick<MembersClient, 'members'>>();
  return useQuery({
    queryKey: memberKey(id ?? '', fieldsets),
    queryFn: () => client.members.getMember(id ?? '', { fieldsets }),
    enabled: Boolean(id),
  });
}

/**
 * Approves, blocks, mutes, unmutes or disconnects one member; the platform refuses an action their
 * status does not allow (`MEMBER_STATUS_TRANSITION_NOT_ALLOWED`). Every cached member read is stale after.
 */
export function useMemberStatusAction() {
  const client = useCartwheel<Pick<MembersClient, 'members'>>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: MemberStatusAction }): Promise<Member> => {
      const calls = {
        approve: client.members.approveMember,
        block: client.members.blockMember,
        mute: client.members.muteMember,
        unmute: client.members.unmuteMember,
        disconnect: client.members.disconnectMember,
      } as const;
      return calls[action](id);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: cartwheelKeys.members.all }),
  });
}

const JOB_POLL_MS = 250;

/**
 * Deletes one member, their content going to `contentAssigneeId` (another member) when given. The
 * platform takes an assignee only on its delete-by-filter job, so this starts that job for the one id
 * and follows it to its end; a refusal of the member comes back as the job's failure, thrown here.
 */
export function useDeleteMember() {
  const client = useCartwheel<Pick<MembersClient, 'members'>>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, contentAssigneeId }: { id: string; contentAssigneeId?: string }) => {
      if (!contentAssigneeId) {
        await client.members.deleteMember(id);
        return;
      }
      const started = await client.members.bulkDeleteMembersByFilter(
        { id: { $eq: id } },
        { contentAssigneeId },
      );
      if (!started.jobId) throw new Error('The platform started no job for this deletion.');
      for (;;) {
        const job = await client.members.getBulkMembersJob(started.jobId);
        if (job.status === 'FINISHED') {
          const failure = job.results.find((result) => result.itemMetadata?.success === false);
          if (failure)
            throw new Error(failure.itemMetadata?.error?.description ?? 'The member was not deleted.');
          if ((job.bulkActionMetadata.totalSuccesses ?? 0) === 0)
            throw new Error('No such member to delete.');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
      }
    },
    // every list is stale; the deleted member's own read is not asked again (it would only be refused)
    onSettled: (_answer, _error, { id }) =>
      queryClient.invalidateQueries({
        queryKey: cartwheelKeys.members.all,
        predicate: (query) => !(query.queryKey[2] === 'byId' && query.queryKey[3] === id),
      }),
  });
}
