import { CALLERS, operationTable } from '../shared/access.ts';

/** Who may manage an app's webhooks (issue 31): the admin key, staff and API keys holding webhooks.manage. */
const MANAGERS = CALLERS.staff('webhooks.manage');

/** Cartwheel's own webhook calls: each acts on the calling app's endpoints and key only. */
export const WEBHOOK_OPERATIONS = operationTable('webhooks', {
  listWebhooks: MANAGERS,
  createWebhook: MANAGERS,
  getPublicKey: MANAGERS,
  getWebhook: MANAGERS,
  updateWebhook: MANAGERS,
  deleteWebhook: MANAGERS,
  listDeliveries: MANAGERS,
  listEventTypes: MANAGERS,
  sendTestEvent: MANAGERS,
  replayDelivery: MANAGERS,
  replaySince: MANAGERS,
  countDeadLetters: MANAGERS,
});
