import { StrictMode, useCallback, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Outlet, RouterProvider } from 'react-router';
import { AdminSessionContext, forgetAdminKey, loadAdminKey, saveAdminKey } from './admin-key.ts';
import { Layout } from './components/Layout.tsx';
import { HomePage } from './pages/HomePage.tsx';
import { MailboxPage } from './pages/MailboxPage.tsx';
import './styles.css';

function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>There is no such page in the back office.</p>
    </>
  );
}

const router = createBrowserRouter(
  [
    {
      element: (
        <Layout>
          <Outlet />
        </Layout>
      ),
      children: [
        { path: '/', element: <HomePage /> },
        { path: '/mailbox', element: <MailboxPage /> },
        { path: '*', element: <NotFound /> },
      ],
    },
  ],
  { basename: '/admin' },
);

/** The back office: the developer mailbox now; orders, members and the catalog arrive with their issues. */
function BackOffice() {
  const [apiKey, setApiKey] = useState(loadAdminKey);
  const signIn = useCallback((key: string) => {
    saveAdminKey(key);
    setApiKey(key);
  }, []);
  const signOut = useCallback(() => {
    forgetAdminKey();
    setApiKey(undefined);
  }, []);
  const session = useMemo(() => ({ apiKey, signIn, signOut }), [apiKey, signIn, signOut]);
  return (
    <AdminSessionContext.Provider value={session}>
      <RouterProvider router={router} />
    </AdminSessionContext.Provider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BackOffice />
  </StrictMode>,
);
