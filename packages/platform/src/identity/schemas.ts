import { ADDRESS_TAGS, EMAIL_TAGS, IDENTITY_PRIVACY_STATUSES, PHONE_TAGS } from '@cartwheel/sdk';
import Type, { type TSchema } from 'typebox';
import {
  BuyerAddress,
  Id,
  Ignored,
  NotSupportedYet,
  Nullable,
  OneOf,
  reportingEveryViolation,
  Text,
  URL_MAX_LENGTH,
} from '../http/input.ts';
import { EMAIL_MAX_LENGTH } from './errors.ts';
import { PASSWORD_MAX_LENGTH } from './passwords.ts';
import { PROFILE_LIST_MAX } from './profile.ts';

/** The identity calls' inputs, as the hosted client sends them (wire contract, Authentication). */

const Email = Text(EMAIL_MAX_LENGTH);
const Password = Text(PASSWORD_MAX_LENGTH);
/** Codes, state tokens, session and recovery tokens: opaque text Cartwheel made. */
const Secret = Text(512);
const LoginId = Type.Object({ email: Type.Optional(Email) });
const CaptchaTokens = Type.Array(
  Type.Object({
    Recaptcha: Type.Optional(Nullable(Text(4096))),
    InvisibleRecaptcha: Type.Optional(Nullable(Text(4096))),
  }),
  { maxItems: 4 },
);
const ProfileText = Type.Optional(Nullable(Text(1000)));
const List = <T extends TSchema>(item: T) =>
  Type.Optional(Nullable(Type.Array(item, { maxItems: PROFILE_LIST_MAX })));
/**
 * Point 3's custom value: a string, a number or a date. The hosted wire's lists, maps and booleans
 * are not point 3's, and are refused saying so.
 */
const CustomValue = Type.Object({
  strValue: Type.Optional(Nullable(Text(1000))),
  numValue: Type.Optional(Nullable(Type.Number())),
  dateValue: Type.Optional(Nullable(Text(40))),
  boolValue: NotSupportedYet(),
  listValue: NotSupportedYet(),
  mapValue: NotSupportedYet(),
});
const Profile = Type.Object({
  firstName: ProfileText,
  lastName: ProfileText,
  nickname: ProfileText,
  picture: Type.Optional(Nullable(Text(URL_MAX_LENGTH))),
  language: ProfileText,
  company: ProfileText,
  position: ProfileText,
  birthdate: ProfileText,
  slug: ProfileText,
  vatId: ProfileText,
  subscription: Type.Optional(Nullable(Type.Boolean())),
  privacyStatus: Type.Optional(OneOf(IDENTITY_PRIVACY_STATUSES)),
  labels: List(Text(200)),
  customFields: List(Type.Object({ name: Text(200), value: CustomValue })),
  emails: List(Email),
  phones: List(Text(50)),
  secondaryEmails: List(Type.Object({ email: Email, tag: Type.Optional(OneOf(EMAIL_TAGS)) })),
  phonesV2: List(
    Type.Object({
      countryCode: Type.Optional(Nullable(Text(10))),
      phone: Text(50),
      tag: Type.Optional(OneOf(PHONE_TAGS)),
    }),
  ),
  addresses: List(Type.Object({ address: BuyerAddress, tag: Type.Optional(OneOf(ADDRESS_TAGS)) })),
});

export const RegisterBody = Type.Object({
  loginId: Type.Optional(LoginId),
  password: Type.Optional(Password),
  profile: Type.Optional(Nullable(Profile)),
  captchaTokens: Type.Optional(Nullable(CaptchaTokens)),
  clientMetaData: Type.Optional(Ignored("the hosted client's own notes for its analytics")),
});

export const LoginBody = Type.Object({
  loginId: Type.Optional(LoginId),
  password: Type.Optional(Password),
  captchaTokens: Type.Optional(Nullable(CaptchaTokens)),
  clientMetaData: Type.Optional(Ignored("the hosted client's own notes for its analytics")),
});

export const ChangePasswordBody = Type.Object({ newPassword: Type.Optional(Password) });

export const SignOnBody = Type.Object({
  loginId: Type.Optional(LoginId),
  profile: Type.Optional(Nullable(Profile)),
  verifyEmail: Type.Optional(Nullable(Type.Boolean())),
  mergeExistingContact: Type.Optional(Nullable(Type.Boolean())),
});

export const VerifyDuringAuthenticationBody = Type.Object({
  code: Type.Optional(Text(32)),
  stateToken: Type.Optional(Secret),
});
export const ResendCodeBody = Type.Object({ stateToken: Type.Optional(Secret) });
export const StartVerificationBody = Type.Object({
  identityId: Type.Optional(Id()),
  target: Type.Optional(OneOf(['EMAIL'])),
});
export const VerifyByIdBody = Type.Object({
  code: Type.Optional(Text(32)),
  verificationId: Type.Optional(Id()),
});

const Redirect = Type.Object({
  url: Type.Optional(Nullable(Text(URL_MAX_LENGTH))),
  clientId: Type.Optional(Nullable(Id())),
});
export const SendRecoveryEmailBody = Type.Object({
  email: Type.Optional(Email),
  language: Type.Optional(Nullable(Text(20))),
  redirect: Type.Optional(Nullable(Redirect)),
});
export const RecoverBody = Type.Object({
  recoveryToken: Type.Optional(Secret),
  password: Type.Optional(Password),
});
export const ActivationEmailBody = Type.Object({
  identityId: Type.Optional(Id()),
  emailOptions: Type.Optional(Nullable(Type.Object({ redirect: Type.Optional(Nullable(Redirect)) }))),
});

export const IdentitySettingsBody = reportingEveryViolation(
  Type.Object({
    settings: Type.Object(
      {
        requireEmailVerification: Type.Optional(Type.Boolean()),
        requireOwnerApproval: Type.Optional(Type.Boolean()),
        captcha: Type.Optional(OneOf(['off', 'required'])),
        requireStaffSecondStep: Type.Optional(Type.Boolean()),
      },
      // a setting this platform does not have is a mistake worth hearing of, not an extra to ignore
      { additionalProperties: false },
    ),
  }),
);

/** `POST /v2/{factorType}/verify`: the second step of a sign-in (point 7). */
const FactorCode = Type.Object({ code: Type.Optional(Nullable(Text(32))) });
export const SecondFactorParams = Type.Object({ factorType: Text(20) });
export const VerifySecondFactorBody = Type.Object({
  stateToken: Type.Optional(Secret),
  rememberThisDevice: Type.Optional(Nullable(Type.Boolean())),
  emailData: Type.Optional(Nullable(FactorCode)),
  totpData: Type.Optional(Nullable(FactorCode)),
  /** The hosted wire's recovery code, for a sign-in whose factor is lost. */
  recoveryCodeData: Type.Optional(Nullable(FactorCode)),
  // factors Cartwheel does not offer: refused saying so
  smsData: NotSupportedYet(),
  callData: NotSupportedYet(),
  pushData: NotSupportedYet(),
});

/** A member's own second factors (Cartwheel's calls): the type in the path, a code to activate. */
export const FactorTypeParams = Type.Object({ type: OneOf(['EMAIL', 'TOTP']) });
export const ActivateFactorBody = Type.Object({ code: Text(32) });
