/** The redirects module: `createClient({ auth, modules: { redirects } })`. */
export { REDIRECTS, redirects } from './redirects.ts';
