import Type from 'typebox';
import { AnyValue, Choice, NullableBoolean, NullableText, Timestamp } from '../http/responses-identity.ts';

/**
 * What the identity calls answer (`/_api/iam/...`, the captcha challenge, the sign-up settings), as
 * the SDK's types in types/identity.ts and types/login.ts read them.
 */

const IdentityProfile = Type.Object({
  firstName: Type.Optional(NullableText),
  lastName: Type.Optional(NullableText),
  nickname: Type.Optional(NullableText),
  picture: Type.Optional(NullableText),
  emails: Type.Optional(Type.Array(Type.String())),
  phones: Type.Optional(Type.Array(Type.String())),
  labels: Type.Optional(Type.Array(Type.String())),
  language: Type.Optional(NullableText),
  privacyStatus: Type.Optional(Type.String()),
  // the hosted wire's nested custom values (lists, maps) are passed through as kept
  customFields: Type.Optional(Type.Array(AnyValue)),
  secondaryEmails: Type.Optional(Type.Array(AnyValue)),
  phonesV2: Type.Optional(Type.Array(AnyValue)),
  addresses: Type.Optional(Type.Array(AnyValue)),
  company: Type.Optional(NullableText),
  position: Type.Optional(NullableText),
  birthdate: Type.Optional(NullableText),
  slug: Type.Optional(NullableText),
  subscription: Type.Optional(NullableBoolean),
  vatId: Type.Optional(NullableText),
});

export const IdentityAnswer = Type.Object({
  id: Type.Optional(NullableText),
  revision: Type.Optional(NullableText),
  createdDate: Type.Optional(Timestamp),
  updatedDate: Type.Optional(Timestamp),
  identityProfile: Type.Optional(IdentityProfile),
  email: Type.Optional(
    Type.Object({ address: Type.Optional(Type.String()), isVerified: Type.Optional(Type.Boolean()) }),
  ),
  status: Type.Optional(
    Type.Object({ name: Type.Optional(Type.String()), reasons: Type.Optional(Type.Array(Type.String())) }),
  ),
  factors: Type.Optional(
    Type.Array(
      Type.Object({
        factorId: Type.Optional(Type.String()),
        type: Type.Optional(Type.String()),
        status: Type.Optional(Type.String()),
      }),
    ),
  ),
});

/** Register, login, verification and recovery: the step the sign-in is at (SDK `StateMachineResponse`). */
export const StateMachineAnswer = Type.Object({
  state: Type.Optional(Type.String()),
  sessionToken: Type.Optional(NullableText),
  stateToken: Type.Optional(NullableText),
  identity: Type.Optional(IdentityAnswer),
  // free-form by design: the hosted wire's extra data of a step
  additionalData: Type.Optional(Type.Record(Type.String(), AnyValue)),
  /** `REQUIRE_MFA`: the factors that can take the second step. */
  requireMfaData: Type.Optional(
    Type.Object({
      availableFactors: Type.Array(Type.Object({ factorType: Type.String(), factorStatus: Type.String() })),
      reason: Type.String(),
    }),
  ),
});

/** A member's second factors (`GET /api/cartwheel/identity/factors`). */
export const FactorsAnswer = Type.Object({
  factors: Type.Array(Type.Object({ factorType: Type.String(), status: Type.String() })),
  recoveryCodesLeft: Type.Number(),
  requiredByStore: Type.Boolean(),
});
export const TotpEnrolmentAnswer = Type.Object({ secret: Type.String(), otpauthUrl: Type.String() });
export const RecoveryCodesAnswer = Type.Object({ recoveryCodes: Type.Array(Type.String()) });

export const SignOnAnswer = Type.Object({ sessionToken: Type.String(), identity: IdentityAnswer });

export const VerificationStartedAnswer = Type.Object({ verificationId: Type.String() });

export const IdentitySettingsAnswer = Type.Object({
  settings: Type.Object({
    requireEmailVerification: Type.Boolean(),
    requireOwnerApproval: Type.Boolean(),
    captcha: Choice(['off', 'required']),
    requireStaffSecondStep: Type.Boolean(),
  }),
});

/** The proof-of-work challenge a browser solves (SDK `CaptchaChallenge`). */
export const CaptchaChallengeAnswer = Type.Object({
  algorithm: Type.String(),
  challenge: Type.String(),
  salt: Type.String(),
  signature: Type.String(),
  maxnumber: Type.Number(),
});
