import { useDocumentTitle } from '../components/hooks.ts';
import { NotFound } from '../components/Status.tsx';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <NotFound title="We couldn't find that page">
      <p>The link may be old, or the page may have moved.</p>
    </NotFound>
  );
}
