/** The ecom modules: `createClient({ auth, modules: { currentCart } })`. */
export { currentCart } from './current-cart.ts';
export { CURRENT_CART } from './domains.ts';
