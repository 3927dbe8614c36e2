import { useEffect } from 'react';
import { Link } from 'react-router';
import { useAdminSession } from '../admin-key.ts';
import { StaffGate, StaffSignIn } from '../components/StaffGate.tsx';
import { Dashboard } from './Dashboard.tsx';

export function HomePage() {
  const { apiKey, staff } = useAdminSession();
  useEffect(() => {
    document.title = 'Cartwheel back office';
  }, []);
  return (
    <>
      <h1>Cartwheel back office</h1>
      {apiKey ? <Dashboard /> : null}
      {staff && !apiKey ? (
        <StaffGate>
          <Dashboard />
        </StaffGate>
      ) : null}
      {/* signed out, the front door leads with signing in: nothing below works before it */}
      {!apiKey && !staff ? <StaffSignIn /> : null}
      <p>
        Orders, products and members are managed here, through the same API an app would use with the admin
        API key the platform printed at first start.
      </p>
      <ul className="tiles">
        <li className="tile">
          <h2>
            <Link to="/mailbox">Mailbox</Link>
          </h2>
          <p className="muted">
            Every email the platform sent: verification codes, password reset links, invitations.
          </p>
        </li>
        <li className="tile">
          <h2>
            <Link to="/orders">Orders</Link>
          </h2>
          <p className="muted">
            Every order: find one by number or buyer email, filter by payment and fulfillment.
          </p>
        </li>
        <li className="tile">
          <h2>
            <Link to="/members">Members</Link>
          </h2>
          <p className="muted">Find members, approve those waiting, block or delete, one or many at once.</p>
        </li>
        <li className="tile">
          <h2>
            <Link to="/products">Products</Link>
          </h2>
          <p className="muted">
            Create and edit products: price, cost and margin, SKU, stock and visibility.
          </p>
        </li>
      </ul>
      <p>
        <a href="/">Go to the storefront</a>
      </p>
    </>
  );
}
