import { CheckboxField, Field } from '@cartwheel/design';
import { useCancelOrder, useOrderFulfillments, useUpdateOrderTags } from '@cartwheel/react';
import type { Order } from '@cartwheel/sdk';
import { type FormEvent, useId, useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { useNotice } from '../components/notices.tsx';
import { useCan } from '../staff-session.ts';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Cancels the order, after the merchant confirms: restock and the buyer's email are their choice. The
 * platform refuses to cancel an order with shipments, so there it says how instead of offering it.
 */
export function CancelOrder({ order }: { order: Order }) {
  const cancel = useCancelOrder();
  const shipments = useOrderFulfillments(order.id ?? undefined);
  const [open, setOpen] = useState(false);
  const [restock, setRestock] = useState(true);
  const [notify, setNotify] = useState(false);
  const [done, setDone] = useNotice();
  const canManage = useCan('orders.manage');

  async function confirm() {
    try {
      await cancel.mutateAsync({
        id: order.id ?? '',
        restockAllItems: restock,
        sendOrderCanceledEmail: notify,
      });
      setOpen(false);
      setDone(`Order #${order.number} was canceled${restock ? ' and its items put back in stock' : ''}.`);
    } catch {
      // shown in the dialog, which stays open
    }
  }

  return (
    <>
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      {order.status === 'CANCELED' || !canManage ? null : shipments.data?.length ? (
        <p className="muted" data-testid="cancel-unavailable">
          Shipped orders cannot be canceled: delete the shipments below first.
        </p>
      ) : (
        <ConfirmDialog
          open={open}
          onOpenChange={(next) => {
            setOpen(next);
            if (next) cancel.reset();
          }}
          trigger={
            <button className="button" type="button">
              Cancel order
            </button>
          }
          title={`Cancel order #${order.number}?`}
          description="A canceled order can no longer be fulfilled. Its payment is not refunded by canceling."
          confirm="Cancel order"
          busy={cancel.isPending}
          error={cancel.isError ? `It was not canceled: ${messageOf(cancel.error)}` : undefined}
          onConfirm={confirm}
        >
          <CheckboxField
            label="Put the items back in stock"
            checked={restock}
            onChange={(event) => setRestock(event.target.checked)}
          />
          <CheckboxField
            label="Email the buyer that the order was canceled"
            checked={notify}
            onChange={(event) => setNotify(event.target.checked)}
          />
        </ConfirmDialog>
      )}
    </>
  );
}

/** The order's tags: the merchant adds one by name and removes any, each saved at once. */
export function OrderTagsEditor({ order }: { order: Order }) {
  const update = useUpdateOrderTags();
  const id = useId();
  const tags = order.tags?.tags?.tagIds ?? [];
  const canManage = useCan('orders.manage');

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const tag = String(new FormData(form).get('tag') ?? '').trim();
    if (!tag || tags.includes(tag)) return;
    try {
      await update.mutateAsync({ orderIds: [order.id ?? ''], assignTags: { tags: { tagIds: [tag] } } });
      form.reset();
    } catch {
      // shown below; the typed tag stays in the field
    }
  }

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Tags</h2>
      {tags.length > 0 ? (
        <ul className="tags" aria-label="Tags of this order">
          {tags.map((tag) => (
            <li key={tag} className="badge" data-testid="order-tag">
              {tag}
              {canManage ? (
                <button
                  type="button"
                  className="tag__remove"
                  aria-label={`Remove tag ${tag}`}
                  disabled={update.isPending}
                  onClick={() =>
                    update.mutate({ orderIds: [order.id ?? ''], unassignTags: { tags: { tagIds: [tag] } } })
                  }
                >
                  ×
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No tags. Tags help find orders later, e.g. “gift” or “wholesale”.</p>
      )}
      {canManage ? (
        <form className="toolbar__search" onSubmit={add}>
          <Field compact label="New tag" name="tag" maxLength={100} />
          <button className="button" type="submit" disabled={update.isPending}>
            Add tag
          </button>
        </form>
      ) : null}
      {update.isError ? (
        <p className="form-alert" role="alert">
          The tags were not changed: {messageOf(update.error)}
        </p>
      ) : null}
    </section>
  );
}
