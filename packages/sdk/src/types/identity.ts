/**
 * Identities of the authentication service (`/_api/iam/...`): who can sign in, with which profile
 * and factors, and the request shapes of registration and login.
 */

export const EMAIL_TAGS = ['UNTAGGED', 'MAIN', 'HOME', 'WORK'] as const;
export type EmailTag = (typeof EMAIL_TAGS)[number];

export const PHONE_TAGS = ['UNTAGGED', 'MAIN', 'HOME', 'MOBILE', 'WORK', 'FAX'] as const;
export type PhoneTag = (typeof PHONE_TAGS)[number];

export const ADDRESS_TAGS = ['UNTAGGED', 'HOME', 'WORK', 'BILLING', 'SHIPPING'] as const;
export type AddressTag = (typeof ADDRESS_TAGS)[number];

export const IDENTITY_PRIVACY_STATUSES = ['UNDEFINED', 'PUBLIC', 'PRIVATE'] as const;
export type IdentityPrivacyStatus = (typeof IDENTITY_PRIVACY_STATUSES)[number];

/** Whom an identity belongs to: a platform account, a site, or the platform itself. */
export const TENANT_TYPES = ['UNKNOWN_TENANT_TYPE', 'ACCOUNT', 'SITE', 'ROOT'] as const;
export type TenantType = (typeof TENANT_TYPES)[number];

export const IDENTITY_STATUSES = ['PENDING', 'ACTIVE', 'DELETED', 'BLOCKED', 'OFFLINE'] as const;
export type IdentityStatus = (typeof IDENTITY_STATUSES)[number];

/** Why an identity is still `PENDING`. */
export const IDENTITY_PENDING_REASONS = [
  'PENDING_ADMIN_APPROVAL_REQUIRED',
  'PENDING_EMAIL_VERIFICATION_REQUIRED',
] as const;
export type IdentityPendingReason = (typeof IDENTITY_PENDING_REASONS)[number];

/** Ways to prove who one is; `PASSWORD` is the first factor of every email login. */
export const FACTOR_TYPES = ['PASSWORD', 'SMS', 'CALL', 'EMAIL', 'TOTP', 'PUSH'] as const;
export type FactorType = (typeof FACTOR_TYPES)[number];

export const FACTOR_STATUSES = ['INACTIVE', 'ACTIVE', 'REQUIRE_REENROLL'] as const;
export type FactorStatus = (typeof FACTOR_STATUSES)[number];

/** One value of a custom field: a string, a number or a date (others nest lists and maps). */
export interface CustomValue {
  strValue?: string;
  numValue?: number;
  dateValue?: Date;
  boolValue?: boolean;
  listValue?: { value?: CustomValue[] };
  mapValue?: { value?: Record<string, CustomValue> };
}

export interface IdentityCustomField {
  name?: string;
  value?: CustomValue;
}

export interface SecondaryEmail {
  email?: string;
  tag?: EmailTag;
}

export interface IdentityPhone {
  countryCode?: string | null;
  phone?: string;
  tag?: PhoneTag;
}

export interface IdentityAddress {
  country?: string | null;
  subdivision?: string | null;
  city?: string | null;
  postalCode?: string | null;
  addressLine?: string | null;
  addressLine2?: string | null;
}

export interface IdentityAddressWrapper {
  address?: IdentityAddress;
  tag?: AddressTag;
}

export interface IdentityProfile {
  firstName?: string | null;
  lastName?: string | null;
  nickname?: string | null;
  /** Picture url. */
  picture?: string | null;
  emails?: string[];
  phones?: string[];
  labels?: string[];
  language?: string | null;
  privacyStatus?: IdentityPrivacyStatus;
  customFields?: IdentityCustomField[];
  secondaryEmails?: SecondaryEmail[];
  phonesV2?: IdentityPhone[];
  addresses?: IdentityAddressWrapper[];
  company?: string | null;
  position?: string | null;
  /** `YYYY-MM-DD`: a calendar date, kept a string. */
  birthdate?: string | null;
  slug?: string | null;
  /** Whether the member consents to marketing communications. */
  subscription?: boolean | null;
  /** Tax id or VAT number. */
  vatId?: string | null;
}

export interface Factor {
  factorId?: string;
  type?: FactorType;
  status?: FactorStatus;
}

export interface Identity {
  id?: string | null;
  revision?: string | null;
  createdDate?: Date;
  updatedDate?: Date;
  identityProfile?: IdentityProfile;
  email?: { address?: string; isVerified?: boolean };
  status?: { name?: IdentityStatus; reasons?: IdentityPendingReason[] };
  factors?: Factor[];
}

export interface LoginId {
  email?: string;
}

/** One captcha answer: a visible (`Recaptcha`) or invisible (`InvisibleRecaptcha`) token. */
export interface CaptchaToken {
  Recaptcha?: string;
  InvisibleRecaptcha?: string;
}

/** `POST /v2/register`. */
export interface RegisterRequest {
  loginId: LoginId;
  password?: string;
  profile?: IdentityProfile;
  captchaTokens?: CaptchaToken[];
  clientMetaData?: Record<string, unknown> | null;
}

/** `POST /v2/login`. */
export interface LoginRequest {
  loginId: LoginId;
  password?: string;
  captchaTokens?: CaptchaToken[];
  clientMetaData?: Record<string, unknown> | null;
  /** The state token of a login flow started beforehand: the request continues it. */
  stateToken?: string | null;
}

/** `POST /v2/sign-on`: sign a known person on without a password (elevated). */
export interface SignOnRequest {
  loginId: LoginId;
  profile?: IdentityProfile;
  verifyEmail?: boolean;
  mergeExistingContact?: boolean;
}

/** A code of one factor, as `POST /v2/{factorType}/verify` carries it. */
export interface FactorCode {
  code?: string | null;
}

/**
 * `POST /v2/{factorType}/verify`: the second step of a sign-in that answered `REQUIRE_MFA`, with the
 * state token it gave and one factor's data (a recovery code when the factor is lost).
 */
export interface VerifyFactorRequest {
  stateToken: string;
  /** The platform remembers this browser (a cookie) and skips the second step on it for a while. */
  rememberThisDevice?: boolean;
  emailData?: FactorCode;
  totpData?: FactorCode;
  recoveryCodeData?: FactorCode;
}

/** `POST /v1/auth/verify`. */
export interface VerifyCodeRequest {
  code: string;
  stateToken: string;
}

/** `POST /v1/send-email`: a password-reset link. */
export interface SendRecoveryEmailRequest {
  email: string;
  language?: string | null;
  redirect?: { url?: string; clientId?: string };
}
