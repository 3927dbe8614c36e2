import type {
  ApiKeyInfo,
  AuditEntry,
  AuditLogPage,
  BulkUpdateProductsResult,
  CaptchaChallenge,
  CaptchaConfig,
  Collection,
  CollectionV2,
  DiscountRule,
  Identity,
  IdentitySettings,
  MailboxMessage,
  Member,
  Product,
  ProductOptionsAvailability,
  ProductVariant,
  RedirectSession,
  SecondFactors,
  StaffRecord,
  StaffRole,
  StateMachineResponse,
  StoreCheckoutSettings,
  StoreCoupon,
  StorePickupLocation,
  StoreSettings,
  StoreShippingRegion,
  TaxRegion,
  TokenResponse,
  UploadedMedia,
  Variant,
} from '@cartwheel/sdk';
import type { Static, TSchema } from 'typebox';
import { describe, expectTypeOf, it } from 'vitest';
import type * as catalog from '../src/catalog/responses.ts';
import type * as email from '../src/email/responses.ts';
import type { StorefrontConfigAnswer } from '../src/http/storefront-config.ts';
import type * as identity from '../src/identity/responses.ts';
import type * as members from '../src/members/responses.ts';
import type * as oauth from '../src/oauth/responses.ts';
import type * as staff from '../src/staff/responses.ts';
import type * as settings from '../src/store-settings/responses.ts';

/**
 * The answers' schemas (issue 37) against the SDK's types of the same answers, checked when the tests
 * are type-checked (`npm run typecheck`, the first step of `npm test`): a field the SDK reads that a
 * schema does not name would be dropped by the compiled serializer, and fails here by its path.
 */

/** The paths of the fields `Sdk` names, at any depth, that the answer's schema `Answer` does not. */
type Unnamed<Answer, Sdk, Path extends string = ''> = unknown extends Answer
  ? never // an open value (`AnyValue`): written as it is, whatever it holds
  : Sdk extends Date
    ? never
    : Sdk extends readonly (infer SdkItem)[]
      ? NonNullable<Answer> extends readonly (infer AnswerItem)[]
        ? Unnamed<AnswerItem, SdkItem, `${Path}[]`>
        : Path
      : Sdk extends object
        ? {
            [K in keyof Sdk & string]-?: K extends keyof Extract<NonNullable<Answer>, object>
              ? Unnamed<Extract<NonNullable<Answer>, object>[K], NonNullable<Sdk[K]>, `${Path}.${K}`>
              : `${Path}.${K}`;
          }[keyof Sdk & string]
        : never;

/** Whether every value of the SDK's type is one the schema admits (so the platform may answer it). */
type Admits<Answer, Sdk> = [Sdk] extends [Answer] ? true : false;

type Of<T extends TSchema> = Static<T>;

describe('the answers the SDK reads are declared, field by field, in the routes response schemas', () => {
  it('identity and OAuth', () => {
    expectTypeOf<
      Unnamed<Of<typeof identity.StateMachineAnswer>, StateMachineResponse>
    >().toEqualTypeOf<never>();
    expectTypeOf<
      Admits<Of<typeof identity.StateMachineAnswer>, StateMachineResponse>
    >().toEqualTypeOf<true>();
    expectTypeOf<Unnamed<Of<typeof identity.IdentityAnswer>, Identity>>().toEqualTypeOf<never>();
    expectTypeOf<
      Unnamed<Of<typeof identity.CaptchaChallengeAnswer>, CaptchaChallenge>
    >().toEqualTypeOf<never>();
    expectTypeOf<
      Admits<Of<typeof identity.CaptchaChallengeAnswer>, CaptchaChallenge>
    >().toEqualTypeOf<true>();
    // a member's second factors, and the store's identity settings the back office switches
    expectTypeOf<Unnamed<Of<typeof identity.FactorsAnswer>, SecondFactors>>().toEqualTypeOf<never>();
    expectTypeOf<
      Unnamed<Of<typeof identity.IdentitySettingsAnswer>['settings'], IdentitySettings>
    >().toEqualTypeOf<never>();
    expectTypeOf<
      Admits<Of<typeof identity.IdentitySettingsAnswer>['settings'], IdentitySettings>
    >().toEqualTypeOf<true>();
    type Config = NonNullable<Of<typeof StorefrontConfigAnswer>['captcha']>;
    expectTypeOf<Unnamed<Config, CaptchaConfig>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Config, CaptchaConfig>>().toEqualTypeOf<true>();
    expectTypeOf<Unnamed<Of<typeof oauth.TokenAnswer>, TokenResponse>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Of<typeof oauth.TokenAnswer>, TokenResponse>>().toEqualTypeOf<true>();
    type Session = Of<typeof oauth.RedirectSessionAnswer>['redirectSession'];
    expectTypeOf<Unnamed<Session, RedirectSession>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Session, RedirectSession>>().toEqualTypeOf<true>();
    type Message = Of<typeof email.MailboxAnswer>['messages'][number];
    expectTypeOf<Unnamed<Message, MailboxMessage>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Message, MailboxMessage>>().toEqualTypeOf<true>();
  });

  it('members', () => {
    expectTypeOf<Unnamed<Of<typeof members.Member>, Member>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Of<typeof members.Member>, Member>>().toEqualTypeOf<true>();
  });

  it('staff, API keys and the audit log', () => {
    type Record = Of<typeof staff.StaffMemberAnswer>['staffMember'];
    expectTypeOf<Unnamed<Record, StaffRecord>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Record, StaffRecord>>().toEqualTypeOf<true>();
    type Role = Of<typeof staff.RoleAnswer>['role'];
    expectTypeOf<Unnamed<Role, StaffRole>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Role, StaffRole>>().toEqualTypeOf<true>();
    type Key = Of<typeof staff.ApiKeyAnswer>['apiKey'];
    expectTypeOf<Unnamed<Key, ApiKeyInfo>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Key, ApiKeyInfo>>().toEqualTypeOf<true>();
    type Page = Of<typeof staff.AuditLogPageAnswer>;
    expectTypeOf<Unnamed<Page, AuditLogPage>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Page, AuditLogPage>>().toEqualTypeOf<true>();
    expectTypeOf<Admits<Page['entries'][number], AuditEntry>>().toEqualTypeOf<true>();
  });

  it('store settings, coupons and discount rules', () => {
    type Store = Of<typeof settings.StoreSettingsAnswer>['storeSettings'];
    expectTypeOf<Unnamed<Store, StoreSettings>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Store, StoreSettings>>().toEqualTypeOf<true>();
    type Checkout = Of<typeof settings.CheckoutSettingsAnswer>['checkoutSettings'];
    expectTypeOf<Unnamed<Checkout, StoreCheckoutSettings>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Checkout, StoreCheckoutSettings>>().toEqualTypeOf<true>();
    type Tax = Of<typeof settings.TaxRegionAnswer>['taxRegion'];
    expectTypeOf<Unnamed<Tax, TaxRegion>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Tax, TaxRegion>>().toEqualTypeOf<true>();
    type Shipping = Of<typeof settings.ShippingRegionAnswer>['shippingRegion'];
    expectTypeOf<Unnamed<Shipping, StoreShippingRegion>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Shipping, StoreShippingRegion>>().toEqualTypeOf<true>();
    type Pickup = Of<typeof settings.PickupLocationAnswer>['pickupLocation'];
    expectTypeOf<Unnamed<Pickup, StorePickupLocation>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Pickup, StorePickupLocation>>().toEqualTypeOf<true>();
    expectTypeOf<Unnamed<Of<typeof settings.Coupon>, StoreCoupon>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Of<typeof settings.Coupon>, StoreCoupon>>().toEqualTypeOf<true>();
    expectTypeOf<Unnamed<Of<typeof settings.DiscountRule>, DiscountRule>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Of<typeof settings.DiscountRule>, DiscountRule>>().toEqualTypeOf<true>();
  });

  it('the catalog', () => {
    expectTypeOf<Unnamed<Of<typeof catalog.Product>, Product>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Of<typeof catalog.Product>, Product>>().toEqualTypeOf<true>();
    type InProduct = NonNullable<Of<typeof catalog.Product>['variants']>[number];
    expectTypeOf<Unnamed<InProduct, ProductVariant>>().toEqualTypeOf<never>();
    type StoreVariant = Of<typeof catalog.StoreVariantAnswer>['variant'];
    expectTypeOf<Unnamed<StoreVariant, Variant>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<StoreVariant, Variant>>().toEqualTypeOf<true>();
    type OneCollection = Of<typeof catalog.CollectionAnswer>['collection'];
    expectTypeOf<Unnamed<OneCollection, Collection & CollectionV2>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<OneCollection, Collection & CollectionV2>>().toEqualTypeOf<true>();
    type Availability = Of<typeof catalog.OptionsAvailabilityAnswer>;
    expectTypeOf<Unnamed<Availability, ProductOptionsAvailability>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Availability, ProductOptionsAvailability>>().toEqualTypeOf<true>();
    type Bulk = Of<typeof catalog.BulkUpdateAnswer>;
    expectTypeOf<Unnamed<Bulk, BulkUpdateProductsResult>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Bulk, BulkUpdateProductsResult>>().toEqualTypeOf<true>();
    type Upload = Of<typeof catalog.UploadedMediaAnswer>['media'];
    expectTypeOf<Unnamed<Upload, UploadedMedia>>().toEqualTypeOf<never>();
    expectTypeOf<Admits<Upload, UploadedMedia>>().toEqualTypeOf<true>();
  });
});
