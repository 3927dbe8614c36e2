import { useSearchParams } from 'react-router';
import { useHostedConfig } from '../components/HostedConfig.ts';
import { HostedPage } from '../components/Layout.tsx';

/**
 * The redirect-session flows Cartwheel has no pages for (oauth/redirect-sessions.ts sends them here),
 * named the way a shopper would.
 */
const FLOW_NAMES: Record<string, string> = {
  login: 'This sign-in page',
  ecomCheckout: 'The hosted checkout page',
  ecomOrderPaymentRequest: 'Paying an order from a payment request',
  bookingsCheckout: 'Checkout for bookings',
  bookingsBook: 'Booking a service',
  eventsCheckout: 'Checkout for event tickets',
  paidPlansCheckout: 'Checkout for paid plans',
  callbacks: 'This page',
  preferences: 'Account preferences',
  'membersAccount.BOOKINGS': 'The bookings section of your account',
  'membersAccount.SUBSCRIPTIONS': 'The subscriptions section of your account',
  'membersAccount.EVENTS': 'The events section of your account',
};

/** `/auth/unavailable?flow=...`: a redirect session led to a flow this platform does not run. */
export function UnavailablePage() {
  const { storeName } = useHostedConfig();
  const [search] = useSearchParams();
  const flow = search.get('flow') ?? '';
  const name = FLOW_NAMES[flow] ?? (flow ? `The "${flow}" page` : 'This page');
  return (
    <HostedPage title="Not available here">
      <p>
        {name} is not available on this platform. {storeName} runs on Cartwheel, which has the store's
        catalog, cart and member accounts, but no bookings, events, paid plans or subscriptions.
      </p>
      <p>
        <a className="button button--primary" href="/">
          Back to {storeName}
        </a>
      </p>
    </HostedPage>
  );
}
