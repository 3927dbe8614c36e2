import { createBrowserRouter } from 'react-router';
import { accountRoutes } from './account/routes.tsx';
import { cartRoutes } from './cart/routes.tsx';
import { Layout } from './components/Layout.tsx';
import { orderRoutes } from './orders/routes.tsx';
import { HomePage } from './pages/HomePage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { ProductListPage } from './pages/ProductListPage.tsx';
import { ProductPage } from './pages/ProductPage.tsx';

/** The shop's pages. `/product-page/:slug` is the hosted platform's product URL shape. */
export function createStorefrontRouter() {
  return createBrowserRouter([
    {
      element: <Layout />,
      children: [
        { index: true, element: <HomePage /> },
        { path: 'products', element: <ProductListPage /> },
        { path: 'collections/:slug', element: <ProductListPage /> },
        { path: 'product-page/:slug', element: <ProductPage /> },
        ...accountRoutes,
        ...cartRoutes,
        ...orderRoutes,
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}
