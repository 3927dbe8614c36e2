import { CALLERS, operationTable } from '../shared/access.ts';

/**
 * The platform shell's own operations, for everyone: what the bundled apps read at start (nothing
 * secret), and the apps' files themselves (the storefront, the back office, the hosted pages).
 */
export const PLATFORM_OPERATIONS = operationTable('platform', {
  getStorefrontConfig: CALLERS.anyone,
  getAppFile: CALLERS.anyone,
});
