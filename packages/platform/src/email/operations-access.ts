import { CALLERS, operationTable } from '../shared/access.ts';

/**
 * The developer mailbox, for the admin key and the store's owner only: its messages hold codes and
 * links into members' accounts, beyond any staff role's permissions.
 */
export const EMAIL_OPERATIONS = operationTable('email', {
  listMailbox: CALLERS.staff('OWNER'),
});
