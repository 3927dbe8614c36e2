import { CALLERS, operationTable } from '../shared/access.ts';

/** The admin key, staff and API keys holding settings.manage (issue 21). */
const SETTINGS_MANAGERS = CALLERS.staff('settings.manage');

/**
 * The store's commerce settings: checkout settings and discount rules at the hosted platform's paths
 * (the hosted SDK's names), the rest (which the hosted platform keeps in its dashboard) Cartwheel's own.
 */
export const STORE_SETTINGS_OPERATIONS = operationTable('storeSettings', {
  getStoreSettings: SETTINGS_MANAGERS,
  updateStoreSettings: SETTINGS_MANAGERS,
  getCheckoutSettings: SETTINGS_MANAGERS,
  updateCheckoutSettings: SETTINGS_MANAGERS,
  listTaxRegions: SETTINGS_MANAGERS,
  createTaxRegion: SETTINGS_MANAGERS,
  updateTaxRegion: SETTINGS_MANAGERS,
  deleteTaxRegion: SETTINGS_MANAGERS,
  listShippingRegions: SETTINGS_MANAGERS,
  createShippingRegion: SETTINGS_MANAGERS,
  updateShippingRegion: SETTINGS_MANAGERS,
  deleteShippingRegion: SETTINGS_MANAGERS,
  listPickupLocations: SETTINGS_MANAGERS,
  createPickupLocation: SETTINGS_MANAGERS,
  updatePickupLocation: SETTINGS_MANAGERS,
  deletePickupLocation: SETTINGS_MANAGERS,
  listCoupons: SETTINGS_MANAGERS,
  createCoupon: SETTINGS_MANAGERS,
  updateCoupon: SETTINGS_MANAGERS,
  deleteCoupon: SETTINGS_MANAGERS,
  createDiscountRule: SETTINGS_MANAGERS,
  queryDiscountRules: SETTINGS_MANAGERS,
  getDiscountRule: SETTINGS_MANAGERS,
  updateDiscountRule: SETTINGS_MANAGERS,
  deleteDiscountRule: SETTINGS_MANAGERS,
});
