import { useEffect } from 'react';
import { Link } from 'react-router';

export function HomePage() {
  useEffect(() => {
    document.title = 'Cartwheel back office';
  }, []);
  return (
    <>
      <h1>Cartwheel back office</h1>
      <p>
        Orders and products are here; members will be managed here too. Until then, the admin API key the
        platform printed at first start manages them through the API.
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
        <li className="tile tile--soon">
          <h2>Members</h2>
          <p className="muted">Coming soon.</p>
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
