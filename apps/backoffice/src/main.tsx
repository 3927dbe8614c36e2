import { CartwheelProvider, createCartwheelQueryClient } from '@cartwheel/react';
import { type ReactNode, StrictMode, useCallback, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, Outlet, RouterProvider } from 'react-router';
import {
  AdminSessionContext,
  forgetAdminKey,
  loadAdminKey,
  saveAdminKey,
  useAdminSession,
} from './admin-key.ts';
import { ProductEditorPage } from './catalog/ProductEditor.tsx';
import { ProductsPage } from './catalog/ProductsPage.tsx';
import { createBackOfficeClient } from './client.ts';
import { AdminKeyForm } from './components/AdminKeyForm.tsx';
import { Layout } from './components/Layout.tsx';
import { MembersPage } from './members/MembersPage.tsx';
import { OrderPage } from './orders/OrderPage.tsx';
import { OrdersPage } from './orders/OrdersPage.tsx';
import { HomePage } from './pages/HomePage.tsx';
import { MailboxPage } from './pages/MailboxPage.tsx';
import { settingsRoutes } from './settings/routes.tsx';
import './styles.css';

function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>There is no such page in the back office.</p>
    </>
  );
}

/** A page that calls the platform: asks for the key first. */
function SignedIn({ title, page }: { title: string; page: ReactNode }) {
  const { apiKey } = useAdminSession();
  if (apiKey) return page;
  return (
    <>
      <h1>{title}</h1>
      <AdminKeyForm />
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
        { path: '/orders', element: <SignedIn title="Orders" page={<OrdersPage />} /> },
        { path: '/orders/:id', element: <SignedIn title="Order" page={<OrderPage />} /> },
        { path: '/members', element: <SignedIn title="Members" page={<MembersPage />} /> },
        { path: '/products', element: <SignedIn title="Products" page={<ProductsPage />} /> },
        { path: '/products/:id', element: <SignedIn title="Product" page={<ProductEditorPage />} /> },
        settingsRoutes(<Navigate to="/settings/staff" replace />, (title, page) => (
          <SignedIn title={title} page={page} />
        )),
        { path: '*', element: <NotFound /> },
      ],
    },
  ],
  { basename: '/admin' },
);

/** The back office: orders, products, members and the developer mailbox. */
function BackOffice() {
  const [apiKey, setApiKey] = useState(loadAdminKey);
  // one cache for the tab's life, emptied whenever the key changes: nothing read with one key is shown
  // under another (the router is not remounted, so a page keeps saying why a key was refused)
  const [queryClient] = useState(createCartwheelQueryClient);
  const signIn = useCallback(
    (key: string) => {
      queryClient.clear();
      saveAdminKey(key);
      setApiKey(key);
    },
    [queryClient],
  );
  const signOut = useCallback(() => {
    queryClient.clear();
    forgetAdminKey();
    setApiKey(undefined);
  }, [queryClient]);
  const session = useMemo(() => ({ apiKey, signIn, signOut }), [apiKey, signIn, signOut]);
  const client = useMemo(() => createBackOfficeClient(apiKey ?? ''), [apiKey]);
  return (
    <AdminSessionContext.Provider value={session}>
      <CartwheelProvider client={client} queryClient={queryClient}>
        <RouterProvider router={router} />
      </CartwheelProvider>
    </AdminSessionContext.Provider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BackOffice />
  </StrictMode>,
);
