import {
  useBackInStockCollecting,
  useBackInStockRequests,
  useDeleteBackInStockRequest,
  useProducts,
  useSetBackInStockCollecting,
} from '@cartwheel/react';
import type { BackInStockRequest } from '@cartwheel/sdk';
import { useState } from 'react';
import { formatDate, Notice, RecordList } from './common.tsx';

const STATUS_LABELS: Record<string, string> = {
  RECEIVED: 'Waiting',
  PROCESSING: 'Sending',
  NOTIFICATION_SENT: 'Emailed',
  FAILED: 'Failed, will retry',
};

type Listed = BackInStockRequest & { id: string };

/** Each product asked for, with how many shoppers wait for it, were emailed, or failed. */
export function requestsByProduct(requests: readonly BackInStockRequest[]) {
  const products = new Map<string, { id: string; waiting: number; emailed: number; failed: number }>();
  for (const request of requests) {
    const id = request.catalogReference?.catalogItemId ?? '';
    const counts = products.get(id) ?? { id, waiting: 0, emailed: 0, failed: 0 };
    if (request.status === 'RECEIVED' || request.status === 'PROCESSING') counts.waiting += 1;
    else if (request.status === 'NOTIFICATION_SENT') counts.emailed += 1;
    else if (request.status === 'FAILED') counts.failed += 1;
    products.set(id, counts);
  }
  return [...products.values()].sort((a, b) => b.waiting - a.waiting || a.id.localeCompare(b.id));
}

/**
 * Back-in-stock requests: whether the storefront takes them, each product shoppers wait for with its
 * counts, and every request with its status (the store emails each shopper once the item is back).
 */
export function BackInStockPage() {
  const collecting = useBackInStockCollecting();
  const setCollecting = useSetBackInStockCollecting();
  const requests = useBackInStockRequests();
  const remove = useDeleteBackInStockRequest();
  const [notice, setNotice] = useState('');
  const listed = (requests.data ?? []).filter((request): request is Listed => Boolean(request.id));
  const perProduct = requestsByProduct(listed);
  const products = useProducts(
    { filter: { id: { $in: perProduct.map((product) => product.id) } }, paging: { limit: 100 } },
    { merchant: true, enabled: perProduct.length > 0 },
  );
  const nameOf = (id: string) => products.data?.items.find((product) => product.id === id)?.name ?? id;
  return (
    <>
      <h1>Back-in-stock requests</h1>
      <p>
        <label>
          <input
            type="checkbox"
            checked={collecting.data ?? false}
            disabled={collecting.isPending || setCollecting.isPending}
            onChange={(event) =>
              setCollecting.mutate(event.target.checked, {
                onSuccess: (settings) =>
                  setNotice(
                    settings.collectionStates[0]?.collectingRequests
                      ? 'Shoppers can ask to hear when a sold-out item is back.'
                      : 'The storefront no longer offers "Notify me when it\'s back".',
                  ),
              })
            }
          />{' '}
          Let shoppers ask to be emailed when a sold-out item is back
        </label>
      </p>
      <Notice>{notice}</Notice>
      <RecordList
        title="Products"
        query={{ ...requests, data: requests.data ? perProduct : undefined }}
        what="the requested products"
        empty="No shopper has asked for a sold-out item yet."
        nameHeader="Product"
        nameOf={(product) => nameOf(product.id)}
        columns={[
          { header: 'Waiting', cell: (product) => String(product.waiting) },
          { header: 'Emailed', cell: (product) => String(product.emailed) },
          { header: 'Failed', cell: (product) => String(product.failed) },
        ]}
      />
      <RecordList
        title="Requests"
        query={{ ...requests, data: requests.data ? listed : undefined }}
        what="the back-in-stock requests"
        empty="Requests show here once shoppers ask on a sold-out product's page."
        nameHeader="Shopper"
        nameOf={(request) => request.email ?? ''}
        columns={[
          { header: 'Product', cell: (request) => nameOf(request.catalogReference?.catalogItemId ?? '') },
          {
            header: 'Asked',
            cell: (request) => formatDate(request.createdDate ? String(request.createdDate) : null),
          },
          {
            header: 'Status',
            cell: (request) =>
              `${STATUS_LABELS[request.status ?? ''] ?? request.status}${request.failureReason ? ` (${request.failureReason})` : ''}`,
          },
        ]}
        remove={{
          mutation: remove,
          title: (request) => `Delete the request of ${request.email}?`,
          description: 'The shopper will not be emailed when the item is back.',
          confirm: 'Delete request',
          done: (request) => setNotice(`The request of ${request.email} was deleted.`),
        }}
      />
    </>
  );
}
