import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { AbandonedCheckoutsPage } from './AbandonedCheckoutsPage.tsx';
import { ApiKeysPage } from './ApiKeysPage.tsx';
import { AuditLogPage } from './AuditLogPage.tsx';
import { BackInStockPage } from './BackInStockPage.tsx';
import { CheckoutBrandPage } from './CheckoutBrandPage.tsx';
import { CheckoutTemplatesPage } from './CheckoutTemplatesPage.tsx';
import { CouponsPage } from './CouponsPage.tsx';
import { SettingsLayout } from './common.tsx';
import { DiscountRulesPage } from './DiscountRulesPage.tsx';
import { PaymentsPage } from './PaymentsPage.tsx';
import { PickupLocationsPage } from './PickupLocationsPage.tsx';
import { ShippingPage } from './ShippingPage.tsx';
import { SignInSettingsPage } from './SignInPage.tsx';
import { StaffPage } from './StaffPage.tsx';
import { StorePage } from './StorePage.tsx';
import { TaxesPage } from './TaxesPage.tsx';

/** `/settings/...`: each page behind the sign-in the other pages use (`signedIn`). */
export function settingsRoutes(
  index: ReactNode,
  signedIn: (title: string, page: ReactNode) => ReactNode,
): RouteObject {
  return {
    path: '/settings',
    element: <SettingsLayout />,
    children: [
      { index: true, element: index },
      { path: 'staff', element: signedIn('Staff and roles', <StaffPage />) },
      { path: 'sign-in', element: signedIn('Sign-in', <SignInSettingsPage />) },
      { path: 'api-keys', element: signedIn('API keys', <ApiKeysPage />) },
      { path: 'audit-log', element: signedIn('Audit log', <AuditLogPage />) },
      { path: 'payments', element: signedIn('Payments', <PaymentsPage />) },
      { path: 'store', element: signedIn('Store', <StorePage />) },
      { path: 'shipping', element: signedIn('Shipping', <ShippingPage />) },
      { path: 'taxes', element: signedIn('Taxes', <TaxesPage />) },
      { path: 'coupons', element: signedIn('Coupons', <CouponsPage />) },
      { path: 'discount-rules', element: signedIn('Discount rules', <DiscountRulesPage />) },
      { path: 'pickup-locations', element: signedIn('Pickup locations', <PickupLocationsPage />) },
      { path: 'checkout-brand', element: signedIn('Checkout brand', <CheckoutBrandPage />) },
      { path: 'checkout-templates', element: signedIn('Checkout templates', <CheckoutTemplatesPage />) },
      { path: 'abandoned-checkouts', element: signedIn('Abandoned checkouts', <AbandonedCheckoutsPage />) },
      { path: 'back-in-stock', element: signedIn('Back-in-stock requests', <BackInStockPage />) },
    ],
  };
}
