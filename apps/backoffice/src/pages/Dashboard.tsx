import { SelectField } from '@cartwheel/design';
import { useMembersQuery, useOrderAggregates, useWebhookDeadLetters } from '@cartwheel/react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useCan } from '../staff-session.ts';
import './dashboard.css';

// the chart library loads after the first screen, in its own chunk
const SalesChart = lazy(() => import('./SalesChart.tsx'));

const DAY_MS = 86_400_000;
type Period = 7 | 30 | 90;

/** `YYYY-MM-DD` of the UTC day `days` before today. */
function dayKey(daysAgo: number, now: number): string {
  return new Date(now - daysAgo * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The back office's home: live work queues (each opens its filtered list) and sales, orders and
 * average order value per day for the chosen period against the period before, from the platform's
 * `aggregateOrders`; every number is the platform's, counted over all orders, not one browser's.
 */
export function Dashboard() {
  const canReadOrders = useCan('orders.read');
  const canReadMembers = useCan('members.read');
  const canManageWebhooks = useCan('webhooks.manage');
  return (
    <>
      <h2 className="section-title">Work to do</h2>
      <ul className="queues">
        {canReadOrders ? <OrderQueues /> : null}
        {canReadMembers ? <MemberQueue /> : null}
        {canManageWebhooks ? <DeadLetterQueue /> : null}
      </ul>
      {canReadOrders ? <Sales /> : null}
    </>
  );
}

const QUEUE_REQUEST = {
  filter: { status: { $eq: 'APPROVED' } },
  aggregation: { payment: { $count: ['paymentStatus'] }, fulfillment: { $count: ['fulfillmentStatus'] } },
};

function OrderQueues() {
  const counts = useOrderAggregates(QUEUE_REQUEST);
  const payment = (counts.data?.payment ?? {}) as Record<string, number>;
  const fulfillment = (counts.data?.fulfillment ?? {}) as Record<string, number>;
  const queue = (label: string, count: number | undefined, to: string, testId: string) => (
    <li className="queue" key={testId}>
      <Link to={to} data-testid={testId}>
        <span className="queue__count">{counts.isPending ? '…' : (count ?? 0)}</span>
        <span className="queue__label">{label}</span>
      </Link>
    </li>
  );
  return (
    <>
      {queue('Payments waiting for capture', payment.PENDING, '/orders?payment=PENDING', 'queue-capture')}
      {queue(
        'Orders to ship',
        fulfillment.NOT_FULFILLED,
        '/orders?fulfillment=NOT_FULFILLED',
        'queue-fulfil',
      )}
      {queue(
        'Partly shipped',
        fulfillment.PARTIALLY_FULFILLED,
        '/orders?fulfillment=PARTIALLY_FULFILLED',
        'queue-partly',
      )}
    </>
  );
}

function MemberQueue() {
  const waiting = useMembersQuery({ filter: { status: { $eq: 'PENDING' } }, paging: { limit: 1 } });
  return (
    <li className="queue">
      <Link to="/members?status=PENDING" data-testid="queue-members">
        <span className="queue__count">{waiting.isPending ? '…' : (waiting.data?.totalCount ?? 0)}</span>
        <span className="queue__label">Members waiting for approval</span>
      </Link>
    </li>
  );
}

/** Webhook deliveries given up on after three days of retries, across the app's endpoints. */
function DeadLetterQueue() {
  const dead = useWebhookDeadLetters();
  return (
    <li className="queue">
      <Link to="/webhooks" data-testid="queue-dead-letters">
        <span className="queue__count">{dead.isPending ? '…' : (dead.data ?? 0)}</span>
        <span className="queue__label">Webhook deliveries given up (dead letters)</span>
      </Link>
    </li>
  );
}

function Sales() {
  const [period, setPeriod] = useState<Period>(30);
  // today's date, fixed for the page's life so the query stays one key
  const [now] = useState(() => Date.now());
  const from = dayKey(period * 2 - 1, now);
  const request = useMemo(
    () => ({
      filter: {
        status: { $in: ['APPROVED', 'CANCELED'] },
        createdDate: { $gte: `${from}T00:00:00.000Z` },
      },
      aggregation: {
        sales: { $sum: 'priceSummary.total.amount', groupBy: ['day'] },
        orders: { $count: ['day'] },
      },
    }),
    [from],
  );
  const aggregates = useOrderAggregates(request);
  const sales = (aggregates.data?.sales ?? {}) as Record<string, number>;
  const orders = (aggregates.data?.orders ?? {}) as Record<string, number>;
  const days = Array.from({ length: period }, (_, index) => dayKey(period - 1 - index, now));
  const before = Array.from({ length: period }, (_, index) => dayKey(period * 2 - 1 - index, now));
  const sum = (keys: string[], table: Record<string, number>) =>
    keys.reduce((total, key) => total + (table[key] ?? 0), 0);
  const totals = {
    sales: sum(days, sales),
    orders: sum(days, orders),
    salesBefore: sum(before, sales),
    ordersBefore: sum(before, orders),
  };
  const average = totals.orders > 0 ? totals.sales / totals.orders : 0;
  const averageBefore = totals.ordersBefore > 0 ? totals.salesBefore / totals.ordersBefore : 0;

  return (
    <section className="panel" aria-labelledby="sales-title">
      <div className="page-head">
        <h2 id="sales-title">Sales</h2>
        <SelectField
          compact
          label="Period"
          value={period}
          onChange={(event) => setPeriod(Number(event.target.value) as Period)}
        >
          <option value={7}>Last 7 days</option>
          <option value={30}>Last 30 days</option>
          <option value={90}>Last 90 days</option>
        </SelectField>
      </div>
      <dl className="figures">
        <Figure
          label="Sales"
          value={totals.sales.toFixed(2)}
          before={totals.salesBefore}
          now={totals.sales}
          testId="figure-sales"
        />
        <Figure
          label="Orders"
          value={String(totals.orders)}
          before={totals.ordersBefore}
          now={totals.orders}
          testId="figure-orders"
        />
        <Figure
          label="Average order"
          value={average.toFixed(2)}
          before={averageBefore}
          now={average}
          testId="figure-average"
        />
      </dl>
      <Suspense fallback={<div className="chart" aria-busy="true" />}>
        <SalesChart
          days={days}
          now={days.map((day) => sales[day] ?? 0)}
          before={before.map((day) => sales[day] ?? 0)}
          label={`Sales per day over the last ${period} days beside the ${period} days before; the table below holds the figures`}
        />
      </Suspense>
      <details>
        <summary>Figures by day</summary>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Orders</th>
              <th scope="col">Sales</th>
            </tr>
          </thead>
          <tbody>
            {days
              .filter((day) => orders[day])
              .map((day) => (
                <tr key={day}>
                  <td>{day}</td>
                  <td>{orders[day]}</td>
                  <td>{(sales[day] ?? 0).toFixed(2)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}

function Figure(props: { label: string; value: string; before: number; now: number; testId: string }) {
  const change =
    props.before > 0
      ? Math.round(((props.now - props.before) / props.before) * 100)
      : props.now > 0
        ? null
        : 0;
  return (
    <div className="figure">
      <dt>{props.label}</dt>
      <dd data-testid={props.testId}>{props.value}</dd>
      <dd className="muted figure__change">
        {change === null ? 'new this period' : `${change >= 0 ? '+' : ''}${change}% on the period before`}
      </dd>
    </div>
  );
}
