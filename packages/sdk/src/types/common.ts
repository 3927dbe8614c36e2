/**
 * Shapes shared by every domain: addresses, prices, images, names. Field names are the hosted
 * platform's wire names (`addressLine`, `geocode`; its own client renames them), ids are `id`.
 */

export interface StreetAddress {
  name?: string;
  number?: string;
  apt?: string;
}

export interface AddressLocation {
  latitude?: number | null;
  longitude?: number | null;
}

/** An address as the wire carries it (point 3). `country` is ISO-3166 alpha-2. */
export interface Address {
  city?: string | null;
  /** ISO-3166-2 subdivision code, `US-NY`. */
  subdivision?: string | null;
  country?: string | null;
  postalCode?: string | null;
  /** One-line rendering of the whole address. */
  formattedAddress?: string | null;
  geocode?: AddressLocation;
  streetAddress?: StreetAddress;
  /** Street, number and name in one line, when `streetAddress` is not split. */
  addressLine?: string | null;
  addressLine2?: string | null;
  countryFullname?: string | null;
  subdivisionFullname?: string | null;
}

/** Brazilian tax ids of point 3 (tax type). */
export const VAT_ID_TYPES = ['CPF', 'CNPJ'] as const;
export type VatIdType = (typeof VAT_ID_TYPES)[number];

export interface VatId {
  id?: string;
  type?: VatIdType;
}

export interface FullAddressContactDetails {
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  company?: string | null;
  vatId?: VatId;
}

export interface AddressWithContact {
  address?: Address;
  contactDetails?: FullAddressContactDetails;
}

/** Money with decimal-string amounts, in the site currency and in the buyer's converted one. */
export interface MultiCurrencyPrice {
  amount?: string;
  convertedAmount?: string;
  formattedAmount?: string;
  formattedConvertedAmount?: string;
}

/** Money in one currency, decimal-string amount (orders, payments). */
export interface Price {
  amount?: string;
  formattedAmount?: string;
}

export interface FocalPoint {
  x?: number;
  y?: number;
  height?: number | null;
  width?: number | null;
}

export interface Image {
  id?: string;
  url?: string;
  height?: number;
  width?: number;
  altText?: string | null;
  filename?: string | null;
  /** When a signed `url` stops working. */
  urlExpirationDate?: Date;
  focalPoint?: FocalPoint;
}

/** A name as typed by the merchant and as translated for the buyer. */
export interface TranslatableString {
  original?: string;
  translated?: string | null;
}

export interface PageUrl {
  relativePath?: string;
  url?: string | null;
}

export const WEIGHT_UNITS = ['KG', 'LB'] as const;
export type WeightUnit = (typeof WEIGHT_UNITS)[number];

/** Who buys: a visitor or a member, and the contact behind them. */
export interface BuyerInfo {
  visitorId?: string;
  memberId?: string;
  userId?: string;
  contactId?: string | null;
  email?: string | null;
}

/** Extra fields apps keep on an entity, by app namespace. */
export interface ExtendedFields {
  namespaces?: Record<string, Record<string, unknown>>;
}
