import type { RouteObject } from 'react-router';
import { AccountPage } from './AccountPage.tsx';
import { CallbackPage } from './CallbackPage.tsx';
import { ForgotPasswordPage } from './ForgotPasswordPage.tsx';
import { SignInPage } from './SignInPage.tsx';
import { SignUpPage } from './SignUpPage.tsx';

/** The account pages, inside the shop's layout. */
export const accountRoutes: RouteObject[] = [
  { path: 'account', element: <AccountPage /> },
  { path: 'account/sign-in', element: <SignInPage /> },
  { path: 'account/sign-up', element: <SignUpPage /> },
  { path: 'account/callback', element: <CallbackPage /> },
  { path: 'account/forgot-password', element: <ForgotPasswordPage /> },
];
