import { CheckboxField, Field } from '@cartwheel/design';
import {
  useCancelOrder,
  useOrderFulfillments,
  useOrderTransactions,
  useUpdateOrderTags,
  useVoidAndCancelOrder,
} from '@cartwheel/react';
import { ApplicationError, type Order } from '@cartwheel/sdk';
import { type FormEvent, useId, useState } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { useNotice } from '../components/notices.tsx';
import { useCan } from '../staff-session.ts';
import { money } from './labels.ts';

/** The platform's refusal as it says it (its description and code), or the error's message. */
function messageOf(error: unknown): string {
  if (error instanceof ApplicationError && error.description && error.description !== error.code)
    return `${error.description} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Cancels the order, after the merchant confirms: restock and the buyer's email are their choice. The
 * platform refuses to cancel an order with shipments, so there it says how instead of offering it; it
 * refuses to cancel one holding an authorized payment (the buyer's money would stay held), so there it
 * offers "Void and cancel", which voids at the payment provider first, to staff who may void.
 */
export function CancelOrder({ order }: { order: Order }) {
  const cancel = useCancelOrder();
  const voidAndCancel = useVoidAndCancelOrder();
  const shipments = useOrderFulfillments(order.id ?? undefined);
  const transactions = useOrderTransactions(order.id ?? '');
  const [open, setOpen] = useState(false);
  const [restock, setRestock] = useState(true);
  const [notify, setNotify] = useState(false);
  const [done, setDone] = useNotice();
  const canManage = useCan('orders.manage');
  const canVoid = useCan('orders.void');
  const held = (transactions.data?.payments ?? []).filter((payment) => payment.status === 'AUTHORIZED');
  const action = held.length > 0 ? voidAndCancel : cancel;
  // void and cancel needs orders.void only, as the platform asks (it cancels only what a void releases)
  const mayAct = canManage || (held.length > 0 && canVoid);

  async function confirm() {
    const options = { restockAllItems: restock, sendOrderCanceledEmail: notify };
    try {
      if (held.length > 0) await voidAndCancel.mutateAsync({ orderId: order.id ?? '', ...options });
      else await cancel.mutateAsync({ id: order.id ?? '', ...options });
      setOpen(false);
      setDone(
        `Order #${order.number} was canceled${held.length > 0 ? ', its authorized payment voided' : ''}${restock ? ' and its items put back in stock' : ''}.`,
      );
    } catch (error) {
      // shown in the dialog, which stays open; the payments are read again when the platform saw an
      // authorization this page had not (or none left), so the dialog offers the action that fits
      if (
        error instanceof ApplicationError &&
        ['ORDER_HAS_AUTHORIZED_TRANSACTION', 'ORDER_HAS_NO_AUTHORIZED_TRANSACTION'].includes(error.code)
      )
        void transactions.refetch();
    }
  }

  const authorized = held.map((payment) => money(payment.amount)).join(' and ');
  return (
    <>
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      {order.status === 'CANCELED' || !mayAct ? null : shipments.data?.length ? (
        <p className="muted" data-testid="cancel-unavailable">
          Shipped orders cannot be canceled: delete the shipments below first.
        </p>
      ) : held.length > 0 && !canVoid ? (
        <p className="muted" data-testid="cancel-unavailable">
          This order holds an authorized payment: it is canceled once the payment is voided, by staff allowed
          to void payments.
        </p>
      ) : (
        <ConfirmDialog
          open={open}
          onOpenChange={(next) => {
            setOpen(next);
            if (next) {
              cancel.reset();
              voidAndCancel.reset();
            }
          }}
          trigger={
            <button className="button" type="button">
              {held.length > 0 ? 'Void and cancel' : 'Cancel order'}
            </button>
          }
          title={
            held.length > 0
              ? `Void the payment and cancel order #${order.number}?`
              : `Cancel order #${order.number}?`
          }
          description={
            held.length > 0
              ? `The authorized payment (${authorized}) is voided at the payment provider first, so the buyer's money is released; then the order is canceled. If the void fails, nothing is canceled.`
              : 'A canceled order can no longer be fulfilled. Its payment is not refunded by canceling.'
          }
          confirm={held.length > 0 ? 'Void and cancel' : 'Cancel order'}
          busy={action.isPending}
          error={action.isError ? `It was not canceled: ${messageOf(action.error)}` : undefined}
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
