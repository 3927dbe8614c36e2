import { createCartwheelQueryClient } from '@cartwheel/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { CheckoutPage } from './CheckoutPage.tsx';
import { ConfirmPage } from './ConfirmPage.tsx';

/**
 * The checkout's pages, loaded on demand by the hosted router. Their session and changes are TanStack
 * queries and mutations, as the storefront's, in one client both pages share (the bank step's page
 * hands back to the checkout page).
 */
const queryClient = createCartwheelQueryClient();

export const checkoutRoute = {
  Component: () => (
    <QueryClientProvider client={queryClient}>
      <CheckoutPage />
    </QueryClientProvider>
  ),
};

export const confirmRoute = {
  Component: () => (
    <QueryClientProvider client={queryClient}>
      <ConfirmPage />
    </QueryClientProvider>
  ),
};
