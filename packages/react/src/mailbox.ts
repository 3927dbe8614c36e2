import type { BoundModule, cartwheelMailbox, MailboxQuery } from '@cartwheel/sdk';
import { useQuery } from '@tanstack/react-query';
import { cartwheelKeys } from './keys.ts';
import { useCartwheel } from './provider.tsx';

/** What the mailbox hook needs of the client: the SDK's `cartwheelMailbox` module (Cartwheel's own). */
export interface MailboxClient {
  cartwheelMailbox: BoundModule<typeof cartwheelMailbox>;
}

/**
 * The developer mailbox's latest messages, newest first. Never served from the cache: a code just
 * sent must show, so each visit (and `refetch`) asks the platform again.
 */
export function useMailboxMessages(query: MailboxQuery = {}) {
  const client = useCartwheel<MailboxClient>();
  return useQuery({
    queryKey: [...cartwheelKeys.all, 'mailbox', query] as const,
    queryFn: async () => (await client.cartwheelMailbox.listMessages(query)).messages,
    staleTime: 0,
  });
}
