import { CheckboxField, Field, FieldGroup, SelectField, SubmitButton } from '@cartwheel/design';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useReplayWebhookDeliveriesSince,
  useReplayWebhookDelivery,
  useSendWebhookTestEvent,
  useUpdateWebhook,
  useWebhookDeliveries,
  useWebhookEventTypes,
  useWebhooks,
} from '@cartwheel/react';
import type { WebhookDelivery, WebhookEndpoint } from '@cartwheel/sdk';
import { Fragment, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import {
  ChangeError,
  filledIn,
  formatDate,
  isoOfLocalInput,
  localInputOf,
  Notice,
  placeViolations,
  RecordList,
} from '../settings/common.tsx';
import './webhooks.css';

interface EndpointFormValues {
  url: string;
  eventTypes: string[];
  signature: 'JWT' | 'STANDARD';
}

const EMPTY: EndpointFormValues = { url: '', eventTypes: [], signature: 'JWT' };

const PAUSED_BECAUSE: Record<string, string> = {
  GONE: 'Paused: it answered 410 Gone',
  FAILING: 'Paused: it failed for three days',
};

function statusOf(endpoint: WebhookEndpoint): string {
  if (endpoint.status === 'ACTIVE') return 'Active';
  return PAUSED_BECAUSE[endpoint.pausedReason ?? ''] ?? 'Paused';
}

/**
 * The webhooks of the app this back office signs in as (a key's app, or the store's OAuth client for
 * staff): endpoints added with a URL and the event types they take, paused, resumed, deleted, sent a
 * test event; and the chosen endpoint's deliveries, each replayable, with everything since a time.
 */
export function WebhooksPage() {
  const endpoints = useWebhooks();
  const eventTypes = useWebhookEventTypes();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const test = useSendWebhookTestEvent();
  const [params, setParams] = useSearchParams();
  const chosen = endpoints.data?.find((endpoint) => endpoint.id === params.get('endpoint'));
  const [notice, setNotice] = useState<string>();
  const [secret, setSecret] = useState<{ url: string; secret: string }>();
  const { register, handleSubmit, formState, setError, reset } = useForm<EndpointFormValues>({
    defaultValues: EMPTY,
  });
  const errors = formState.errors;
  const submit = handleSubmit(async (values) => {
    setNotice(undefined);
    try {
      const answer = await create.mutateAsync(values);
      reset(EMPTY);
      setNotice(`The endpoint ${answer.webhook.url} was added.`);
      setSecret(answer.secret ? { url: answer.webhook.url, secret: answer.secret } : undefined);
    } catch (error) {
      placeViolations(error, ['url', 'eventTypes'], (field, message) =>
        setError(field as keyof EndpointFormValues, { message }),
      );
    }
  });
  const choose = (id: string | undefined) => setParams(id ? { endpoint: id } : {});
  const pauseOrResume = (endpoint: WebhookEndpoint) => {
    const status = endpoint.status === 'ACTIVE' ? 'PAUSED' : 'ACTIVE';
    setNotice(undefined);
    update.mutate(
      { id: endpoint.id, webhook: { status } },
      {
        onSuccess: () =>
          setNotice(
            status === 'PAUSED'
              ? `${endpoint.url} is paused: its events wait for it.`
              : `${endpoint.url} is resumed: everything it missed is sent, in order.`,
          ),
      },
    );
  };
  const sendTest = (endpoint: WebhookEndpoint) => {
    setNotice(undefined);
    test.mutate(endpoint.id, {
      onSuccess: (delivery) => {
        setNotice(`A test ${delivery.eventType} event is on its way to ${endpoint.url}.`);
        choose(endpoint.id);
      },
    });
  };

  return (
    <div className="webhooks">
      <h1>Webhooks</h1>
      <p className="muted">
        Endpoints of the app you signed in through: each is sent the events it takes, signed, in order per
        order or member, and tried again for three days when it fails.
      </p>
      <Notice>{notice}</Notice>
      <ChangeError error={update.error ?? test.error} what="The change" />
      {secret ? (
        <section className="panel" aria-labelledby="webhook-secret-title">
          <h2 id="webhook-secret-title">The signing secret of {secret.url}</h2>
          <p role="status">Copy it now: it is shown this once.</p>
          <Field compact label="Secret" readOnly value={secret.secret} size={56} />
          <button className="button button--quiet" type="button" onClick={() => setSecret(undefined)}>
            I have saved it
          </button>
        </section>
      ) : null}

      <RecordList
        title="Endpoints"
        caption="Webhook endpoints"
        query={endpoints}
        what="the webhook endpoints"
        empty="No endpoints yet: add one below to have the store's events sent to your app."
        nameHeader="URL"
        nameOf={(endpoint) => endpoint.url}
        columns={[
          { header: 'Event types', cell: (endpoint) => endpoint.eventTypes.join(', ') },
          { header: 'Status', cell: statusOf },
          {
            header: 'Signature',
            cell: (endpoint) => (endpoint.signature === 'JWT' ? 'JWT' : 'Standard Webhooks'),
          },
        ]}
        actions={(endpoint) => (
          <>
            <button className="button button--quiet" type="button" onClick={() => choose(endpoint.id)}>
              Deliveries <span className="visually-hidden">of {endpoint.url}</span>
            </button>
            <button
              className="button button--quiet"
              type="button"
              disabled={test.isPending}
              onClick={() => sendTest(endpoint)}
            >
              Send a test event <span className="visually-hidden">to {endpoint.url}</span>
            </button>
            <button
              className="button button--quiet"
              type="button"
              disabled={update.isPending}
              onClick={() => pauseOrResume(endpoint)}
            >
              {endpoint.status === 'ACTIVE' ? 'Pause' : 'Resume'}{' '}
              <span className="visually-hidden">{endpoint.url}</span>
            </button>
          </>
        )}
        remove={{
          mutation: remove,
          title: (endpoint) => `Delete the endpoint ${endpoint.url}?`,
          description: 'Its waiting events and its delivery log go with it. This cannot be undone.',
          confirm: 'Delete endpoint',
          done: (endpoint) => {
            if (chosen?.id === endpoint.id) choose(undefined);
            setNotice(`The endpoint ${endpoint.url} was deleted.`);
          },
        }}
      />

      {chosen ? <Deliveries endpoint={chosen} say={setNotice} onClose={() => choose(undefined)} /> : null}

      <section className="panel" aria-labelledby="new-webhook-title">
        <h2 id="new-webhook-title">New endpoint</h2>
        <form onSubmit={submit} noValidate>
          <ChangeError error={create.error} what="Adding the endpoint" />
          <Field
            label="URL"
            type="url"
            hint="https, where your app listens for the store's events."
            announce
            error={errors.url?.message}
            {...register('url', { validate: filledIn('Give the URL your app listens on.') })}
          />
          <FieldGroup legend="Event types" announce error={errors.eventTypes?.message}>
            {eventTypes.isError ? (
              <ErrorNotice
                what="the event types"
                error={eventTypes.error}
                retry={() => eventTypes.refetch()}
              />
            ) : null}
            <div className="event-type-grid">
              {eventTypes.data?.map((type) => (
                <CheckboxField
                  key={type.eventType}
                  label={type.eventType}
                  value={type.eventType}
                  hint={type.permission ? `needs ${type.permission}` : undefined}
                  {...register('eventTypes', {
                    validate: (chosenTypes) => chosenTypes.length > 0 || 'Choose at least one event type.',
                  })}
                />
              ))}
            </div>
          </FieldGroup>
          <SelectField label="Signature" {...register('signature')}>
            <option value="JWT">JWT, as the hosted platform signs (its client's webhooks.process)</option>
            <option value="STANDARD">Standard Webhooks headers</option>
          </SelectField>
          <SubmitButton pending={create.isPending} pendingText="Adding…">
            Add endpoint
          </SubmitButton>
        </form>
      </section>
    </div>
  );
}

const DELIVERY_STATUS: Record<WebhookDelivery['status'], string> = {
  PENDING: 'Waiting',
  DELIVERED: 'Delivered',
  DEAD: 'Dead letter',
};

/** One endpoint's delivery log: each delivery's status, attempts, next try and payload, with replay. */
function Deliveries({
  endpoint,
  say,
  onClose,
}: {
  endpoint: WebhookEndpoint;
  /** Tells the page's one notice what a replay did. */
  say(notice: string | undefined): void;
  onClose(): void;
}) {
  const titleId = useId();
  const deliveries = useWebhookDeliveries(endpoint.id);
  const replay = useReplayWebhookDelivery();
  const replaySince = useReplayWebhookDeliveriesSince();
  // the deliveries whose payload is shown, each in a full-width row under its own
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setShown((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const { register, handleSubmit, formState, setError } = useForm<{ since: string }>({
    defaultValues: { since: localInputOf(new Date(Date.now() - 60 * 60 * 1000)) },
  });
  const submit = handleSubmit(async ({ since }) => {
    say(undefined);
    try {
      const replayed = await replaySince.mutateAsync({
        id: endpoint.id,
        since: isoOfLocalInput(since) ?? '',
      });
      say(`${replayed} ${replayed === 1 ? 'delivery is' : 'deliveries are'} being sent again, in order.`);
    } catch (error) {
      placeViolations(error, ['since'], (_, message) => setError('since', { message }));
    }
  });
  return (
    <section className="panel" aria-labelledby={titleId}>
      <div className="page-head">
        <h2 id={titleId}>Deliveries to {endpoint.url}</h2>
        <div className="row-actions">
          <button className="button button--quiet" type="button" onClick={() => deliveries.refetch()}>
            Refresh
          </button>
          <button className="button button--quiet" type="button" onClick={onClose}>
            Close <span className="visually-hidden">the deliveries</span>
          </button>
        </div>
      </div>
      <ChangeError error={replay.error} what="Replaying the delivery" />
      {deliveries.isError ? (
        <ErrorNotice what="the deliveries" error={deliveries.error} retry={() => deliveries.refetch()} />
      ) : null}
      {deliveries.isPending && !deliveries.isError ? <p role="status">Loading the deliveries…</p> : null}
      {deliveries.data?.length === 0 ? (
        <p className="muted">
          Nothing sent yet: events it takes appear here as they happen, or send a test event.
        </p>
      ) : null}
      {deliveries.data?.length ? (
        <div className="table-wrap">
          <table className="table" data-testid="webhook-deliveries">
            <caption className="visually-hidden">Deliveries to {endpoint.url}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Next try</th>
                <th scope="col">
                  <span className="visually-hidden">Payload and replay</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((delivery) => {
                const last = delivery.attempts.at(-1);
                const name = `${delivery.eventType} ${delivery.eventId}`;
                const payloadId = `${titleId}-payload-${delivery.id}`;
                return (
                  <Fragment key={delivery.id}>
                    <tr>
                      <th scope="row">
                        {delivery.eventType}
                        {delivery.test ? <span className="badge">test</span> : null}
                        <br />
                        <small className="muted">{delivery.eventId}</small>
                      </th>
                      <td>{DELIVERY_STATUS[delivery.status]}</td>
                      <td>
                        {delivery.attempts.length}
                        {last
                          ? ` (last: ${last.outcome}${last.statusCode === null ? '' : ` ${last.statusCode}`}, ${formatDate(last.date)})`
                          : ''}
                      </td>
                      <td>{formatDate(delivery.nextAttemptDate)}</td>
                      <td>
                        <div className="row-actions">
                          <button
                            className="button button--quiet"
                            type="button"
                            aria-expanded={shown.has(delivery.id)}
                            aria-controls={payloadId}
                            onClick={() => toggle(delivery.id)}
                          >
                            Payload <span className="visually-hidden">of {name}</span>
                          </button>
                          {delivery.status === 'PENDING' ? null : (
                            <button
                              className="button button--quiet"
                              type="button"
                              disabled={replay.isPending}
                              onClick={() =>
                                replay.mutate(
                                  { id: endpoint.id, deliveryId: delivery.id },
                                  { onSuccess: () => say(`${name} is being sent again.`) },
                                )
                              }
                            >
                              Replay <span className="visually-hidden">{name}</span>
                            </button>
                          )}
                        </div>
                      </td>
                    </tr>
                    {shown.has(delivery.id) ? (
                      <tr className="delivery-payload" id={payloadId}>
                        <td colSpan={5}>
                          <pre className="webhook-payload">{JSON.stringify(delivery.payload, null, 2)}</pre>
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      <form onSubmit={submit} noValidate className="replay-since">
        <ChangeError error={replaySince.error} what="Replaying" />
        <Field
          label="Send again everything since"
          type="datetime-local"
          announce
          error={formState.errors.since?.message}
          {...register('since', { validate: filledIn('Choose a time.') })}
        />
        <SubmitButton pending={replaySince.isPending} pendingText="Replaying…">
          Replay since then
        </SubmitButton>
      </form>
    </section>
  );
}
