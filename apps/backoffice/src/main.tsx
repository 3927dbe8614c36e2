// first, so every app's own styles come after the shared ones and may override them
import '@cartwheel/design/base.css';
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
import { CollectionsPage } from './catalog/CollectionsPage.tsx';
import { ProductEditorPage } from './catalog/ProductEditor.tsx';
import { ProductsPage } from './catalog/ProductsPage.tsx';
import { createBackOfficeClient } from './client.ts';
import { Layout } from './components/Layout.tsx';
import { StaffGate, StaffSignIn } from './components/StaffGate.tsx';
import { loadClientId } from './config.ts';
import { MemberPage } from './members/MemberPage.tsx';
import { MembersPage } from './members/MembersPage.tsx';
import { OrderPage } from './orders/OrderPage.tsx';
import { OrdersPage } from './orders/OrdersPage.tsx';
import { PackingSlipPage } from './orders/PackingSlip.tsx';
import { CallbackPage } from './pages/CallbackPage.tsx';
import { HomePage } from './pages/HomePage.tsx';
import { MailboxPage } from './pages/MailboxPage.tsx';
import { settingsRoutes } from './settings/routes.tsx';
import { endStaffSignIn, forgetStaffTokens, hasStaffTokens, startStaffSignIn } from './staff-session.ts';
import { SubscriptionsPage } from './subscriptions/SubscriptionsPage.tsx';
import { WebhooksPage } from './webhooks/WebhooksPage.tsx';
import './styles.css';

function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>There is no such page in the back office.</p>
    </>
  );
}

/** A page that calls the platform: asks who is signing in first (a staff account or a key). */
function SignedIn({ title, page }: { title: string; page: ReactNode }) {
  const { apiKey, staff } = useAdminSession();
  if (apiKey) return page;
  if (staff) return <StaffGate>{page}</StaffGate>;
  return (
    <>
      <h1>{title}</h1>
      <StaffSignIn />
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
        { path: '/callback', element: <CallbackPage /> },
        { path: '/orders', element: <SignedIn title="Orders" page={<OrdersPage />} /> },
        { path: '/orders/:id', element: <SignedIn title="Order" page={<OrderPage />} /> },
        {
          path: '/orders/:id/packing-slip',
          element: <SignedIn title="Packing slip" page={<PackingSlipPage />} />,
        },
        { path: '/members', element: <SignedIn title="Members" page={<MembersPage />} /> },
        { path: '/members/:id', element: <SignedIn title="Member" page={<MemberPage />} /> },
        { path: '/products', element: <SignedIn title="Products" page={<ProductsPage />} /> },
        { path: '/products/:id', element: <SignedIn title="Product" page={<ProductEditorPage />} /> },
        settingsRoutes(<Navigate to="/settings/staff" replace />, (title, page) => (
          <SignedIn title={title} page={page} />
        )),
        { path: '/collections', element: <SignedIn title="Collections" page={<CollectionsPage />} /> },
        { path: '/webhooks', element: <SignedIn title="Webhooks" page={<WebhooksPage />} /> },
        {
          path: '/subscriptions',
          element: <SignedIn title="Subscriptions" page={<SubscriptionsPage />} />,
        },
        { path: '*', element: <NotFound /> },
      ],
    },
  ],
  { basename: '/admin' },
);

/** The back office: orders, products, members and the developer mailbox. */
function BackOffice({ clientId }: { clientId: string | undefined }) {
  const [apiKey, setApiKey] = useState(loadAdminKey);
  const [staff, setStaff] = useState(() => hasStaffTokens(clientId));
  // one cache for the tab's life, emptied whenever who calls changes: nothing read as one caller is
  // shown to another (the router is not remounted, so a page keeps saying why a key was refused)
  const [queryClient] = useState(createCartwheelQueryClient);
  const signIn = useCallback(
    (key: string) => {
      queryClient.clear();
      forgetStaffTokens();
      setStaff(false);
      saveAdminKey(key);
      setApiKey(key);
    },
    [queryClient],
  );
  const staffSignedIn = useCallback(() => {
    queryClient.clear();
    forgetAdminKey();
    setApiKey(undefined);
    setStaff(true);
  }, [queryClient]);
  const signOut = useCallback(() => {
    const signedOut = () => {
      queryClient.clear();
      forgetAdminKey();
      forgetStaffTokens();
      setApiKey(undefined);
      setStaff(false);
    };
    // a staff sign-in ends on the platform first: the screen says signed out once it has
    if (staff && clientId)
      void endStaffSignIn(clientId)
        .catch(() => {})
        .finally(signedOut);
    else signedOut();
  }, [queryClient, staff, clientId]);
  const signInAsStaff = useCallback(
    async (returnTo: string) => {
      if (clientId) await startStaffSignIn(clientId, returnTo);
    },
    [clientId],
  );
  const session = useMemo(
    () => ({
      apiKey,
      staff,
      staffSignInAvailable: clientId !== undefined,
      signIn,
      signInAsStaff,
      staffSignedIn,
      signOut,
    }),
    [apiKey, staff, clientId, signIn, signInAsStaff, staffSignedIn, signOut],
  );
  const client = useMemo(
    () =>
      createBackOfficeClient(
        !apiKey && staff && clientId ? { staffClientId: clientId } : { apiKey: apiKey ?? '' },
      ),
    [apiKey, staff, clientId],
  );
  return (
    <AdminSessionContext.Provider value={session}>
      <CartwheelProvider client={client} queryClient={queryClient}>
        <RouterProvider router={router} />
      </CartwheelProvider>
    </AdminSessionContext.Provider>
  );
}

// the store's OAuth client id first: staff sign in with it, and their tokens are read with it
const clientId = await loadClientId();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BackOffice clientId={clientId} />
  </StrictMode>,
);
