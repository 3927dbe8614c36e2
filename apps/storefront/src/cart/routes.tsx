import type { RouteObject } from 'react-router';
import { CartPage } from './CartPage.tsx';

export const cartRoutes: RouteObject[] = [{ path: 'cart', element: <CartPage /> }];
