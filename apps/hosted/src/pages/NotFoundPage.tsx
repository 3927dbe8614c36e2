import { Link } from 'react-router';
import { HostedPage } from '../components/Layout.tsx';

export function NotFoundPage() {
  return (
    <HostedPage title="Page not found">
      <p>There is no such page here.</p>
      <p>
        <Link to="/login">Go to sign in</Link>
      </p>
    </HostedPage>
  );
}
