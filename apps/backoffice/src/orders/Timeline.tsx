import { TextAreaField } from '@cartwheel/design';
import { useAddOrderComment, useDeleteOrderActivity } from '@cartwheel/react';
import type { Order, OrderActivity } from '@cartwheel/sdk';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { useConfirmationFocus } from '../components/confirmation-focus.ts';
import { useNotice } from '../components/notices.tsx';
import { useCan } from '../staff-session.ts';
import { orderDate } from './labels.ts';

const ACTIVITY_LABELS: Record<string, string> = {
  ORDER_PLACED: 'Order placed',
  ORDER_PAID: 'Order paid',
  ORDER_FULFILLED: 'Order fulfilled',
  ORDER_NOT_FULFILLED: 'Fulfillment reopened',
  ORDER_CANCELED: 'Order canceled',
  ORDER_REFUNDED: 'Refund issued',
  MERCHANT_COMMENT: 'Comment',
  EMAIL_EDITED: 'Buyer email changed',
  SHIPPING_ADDRESS_EDITED: 'Shipping address changed',
  ORDER_UPDATED: 'Order details changed',
  TRACKING_NUMBER_ADDED: 'Tracking number added',
  TRACKING_NUMBER_EDITED: 'Tracking number changed',
  TRACKING_LINK_ADDED: 'Tracking link added',
  SHIPPING_CONFIRMATION_EMAIL_SENT: 'Shipping confirmation emailed',
  TAGS_UPDATED: 'Tags changed',
  ORDER_CANCELED_EMAIL_SENT: 'Cancellation emailed to the buyer',
  AUTHORIZED_PAYMENT_CAPTURED: 'Payment captured',
  AUTHORIZED_PAYMENT_VOIDED: 'Authorization voided',
};

/** The platform's limit on a comment is the one of its text fields; the same check runs here first. */
const COMMENT_MAX = 1000;

function labelOf(activity: OrderActivity): string {
  const type = activity.customActivity?.type ?? activity.type ?? '';
  return ACTIVITY_LABELS[type] ?? type;
}

/**
 * The order's timeline, newest first: every activity, the merchant's comments with their text. Staff
 * who may manage orders add a comment, and delete a comment (only comments: the platform keeps every
 * other activity). The order the platform answers is shown at once.
 */
export function Timeline({ order }: { order: Order }) {
  const id = useId();
  const canManage = useCan('orders.manage');
  const add = useAddOrderComment();
  const remove = useDeleteOrderActivity();
  const [done, setDone] = useNotice();
  const [deleting, setDeleting] = useState<string>();
  const focus = useConfirmationFocus(done);
  const form = useForm<{ message: string }>({ defaultValues: { message: '' } });
  const error = form.formState.errors.message?.message;
  const activities = [...(order.activities ?? [])].reverse();

  const submit = form.handleSubmit(async ({ message }) => {
    setDone(undefined);
    try {
      await add.mutateAsync({ orderId: order.id ?? '', message: message.trim() });
      form.reset({ message: '' });
      setDone('Comment added to the timeline.');
    } catch {
      // shown below; the comment stays in the field
    }
  });

  async function confirmDelete(activityId: string) {
    setDone(undefined);
    focus.confirm();
    try {
      await remove.mutateAsync({ orderId: order.id ?? '', activityId });
      setDeleting(undefined);
      setDone('Comment deleted.');
    } catch {
      // shown in the dialog, which stays open
      focus.reset();
    }
  }

  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Timeline</h2>
      {done ? (
        <p className="notice" role="status" tabIndex={-1} ref={focus.notice}>
          {done}
        </p>
      ) : null}
      {canManage ? (
        <form className="comment-form" onSubmit={submit} noValidate>
          <TextAreaField
            id={`${id}-comment`}
            label="Add a comment"
            hint="Only staff see comments; the buyer is not told."
            rows={2}
            error={error}
            announce
            {...form.register('message', {
              validate: (value) => value.trim() !== '' || 'Write the comment first.',
              maxLength: { value: COMMENT_MAX, message: `At most ${COMMENT_MAX} characters.` },
            })}
          />
          {add.isError ? (
            <p className="form-alert" role="alert">
              The comment was not added: {add.error.message}. It is still in the field; try again.
            </p>
          ) : null}
          <button className="button" type="submit" disabled={add.isPending}>
            {add.isPending ? 'Adding…' : 'Add comment'}
          </button>
        </form>
      ) : null}
      {activities.length ? (
        <ol className="timeline">
          {activities.map((activity, index) => (
            <li
              key={activity.id ?? index}
              data-testid={activity.type === 'MERCHANT_COMMENT' ? 'timeline-comment' : 'timeline-entry'}
            >
              <span className="muted">{orderDate(activity.createdDate)}</span>{' '}
              {activity.type === 'MERCHANT_COMMENT' ? (
                <>
                  <span className="timeline__comment">{activity.merchantComment?.message}</span>
                  {canManage && activity.id ? (
                    <ConfirmDialog
                      open={deleting === activity.id}
                      onOpenChange={(open) => {
                        setDeleting(open ? (activity.id ?? undefined) : undefined);
                        if (open) {
                          remove.reset();
                          focus.reset();
                        }
                      }}
                      trigger={
                        <button className="button button--quiet button--small" type="button">
                          Delete{' '}
                          <span className="visually-hidden">
                            comment “{activity.merchantComment?.message}”
                          </span>
                        </button>
                      }
                      title="Delete this comment?"
                      description={`“${activity.merchantComment?.message ?? ''}” leaves the timeline for good.`}
                      confirm="Delete comment"
                      busy={remove.isPending}
                      error={remove.isError ? `It was not deleted: ${remove.error.message}` : undefined}
                      onConfirm={() => confirmDelete(activity.id ?? '')}
                      onCloseAutoFocus={focus.onCloseAutoFocus}
                    />
                  ) : null}
                </>
              ) : (
                labelOf(activity)
              )}
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">Nothing has happened to this order since it was placed.</p>
      )}
    </section>
  );
}
