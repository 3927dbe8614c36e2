import { useAuditLog } from '@cartwheel/react';
import { useSearchParams } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { formatDate } from './common.tsx';

const ACTOR_LABELS: Record<string, string> = { ADMIN_KEY: 'Admin key', API_KEY: 'API key', STAFF: 'Staff' };

/** What staff and keys changed, newest first; the page's cursor is in the URL (`?before=`). */
export function AuditLogPage() {
  const [params, setParams] = useSearchParams();
  const before = params.get('before') ?? undefined;
  const log = useAuditLog(before);
  return (
    <>
      <h1>Audit log</h1>
      <p className="muted">Every change made by staff, API keys and the admin key, newest first.</p>
      {log.isError ? (
        <ErrorNotice what="the audit log" error={log.error} retry={() => log.refetch()} />
      ) : null}
      {log.isPending ? <p role="status">Loading the audit log…</p> : null}
      {log.data && log.data.entries.length === 0 ? (
        <p className="muted">Nothing has been changed yet.</p>
      ) : null}
      {log.data?.entries.length ? (
        <div className="table-wrap">
          <table className="table" aria-busy={log.isFetching}>
            <caption className="visually-hidden">Audit log</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Operation</th>
                <th scope="col">Result</th>
                <th scope="col">Address</th>
              </tr>
            </thead>
            <tbody>
              {log.data.entries.map((entry) => (
                <tr key={entry.id}>
                  <td>{formatDate(entry.date)}</td>
                  <td>
                    {entry.actor.name ?? ACTOR_LABELS[entry.actor.type] ?? entry.actor.type}
                    {entry.actor.name ? (
                      <span className="muted cell__second">
                        {' '}
                        {ACTOR_LABELS[entry.actor.type] ?? entry.actor.type}
                      </span>
                    ) : null}
                  </td>
                  <td>
                    {/* the operation (`orders.cancelOrder`), and the call that made it beneath; entries
                        written before operations were recorded have only the call */}
                    <code className="audit__operation">
                      {entry.operation ?? `${entry.method} ${entry.path}`}
                    </code>
                    {entry.operation ? (
                      <code className="muted cell__second audit__call">
                        {entry.method} {entry.path}
                      </code>
                    ) : null}
                  </td>
                  <td>{entry.status}</td>
                  <td>{entry.address}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <nav className="pager" aria-label="Audit log pages">
        {before ? (
          <button className="button" type="button" onClick={() => setParams({})}>
            Newest
          </button>
        ) : null}
        {log.data?.nextCursor ? (
          <button
            className="button"
            type="button"
            onClick={() => setParams({ before: log.data.nextCursor ?? '' })}
          >
            Older
          </button>
        ) : null}
      </nav>
    </>
  );
}
