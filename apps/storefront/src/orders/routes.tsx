import type { RouteObject } from 'react-router';
import { OrderPage } from './OrderPage.tsx';
import { ThankYouPage } from './ThankYouPage.tsx';

export const orderRoutes: RouteObject[] = [
  { path: 'thank-you', element: <ThankYouPage /> },
  { path: 'account/orders/:id', element: <OrderPage /> },
];
