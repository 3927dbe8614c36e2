import { createBrowserRouter, Navigate, useLocation } from 'react-router';
import { CallbackPage } from './pages/CallbackPage.tsx';
import { ForgotPasswordPage } from './pages/ForgotPasswordPage.tsx';
import { LoginPage } from './pages/LoginPage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { ResetPasswordPage } from './pages/ResetPasswordPage.tsx';
import { SignupPage } from './pages/SignupPage.tsx';
import { StaffInvitationPage } from './pages/StaffInvitationPage.tsx';
import { UnavailablePage } from './pages/UnavailablePage.tsx';
import { VerifyPage } from './pages/VerifyPage.tsx';

/** `/auth/` itself is the sign-in page, with whatever request it was given. */
function ToLogin() {
  const { search } = useLocation();
  return <Navigate to={`/login${search}`} replace />;
}

/** The hosted pages, under `/auth/` where the platform serves them. */
export function createHostedRouter() {
  return createBrowserRouter(
    [
      { path: '/', element: <ToLogin /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/signup', element: <SignupPage /> },
      { path: '/verify', element: <VerifyPage /> },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      { path: '/staff-invitation', element: <StaffInvitationPage /> },
      { path: '/unavailable', element: <UnavailablePage /> },
      { path: '/callback', element: <CallbackPage /> },
      // the checkout (and TanStack Query under it) loads only for a shopper paying, not for sign-in
      { path: '/checkout', lazy: () => import('./checkout/routes.tsx').then((m) => m.checkoutRoute) },
      { path: '/checkout/confirm', lazy: () => import('./checkout/routes.tsx').then((m) => m.confirmRoute) },
      { path: '*', element: <NotFoundPage /> },
    ],
    { basename: '/auth' },
  );
}
