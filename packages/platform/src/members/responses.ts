import { MEMBER_ROLES } from '@cartwheel/sdk';
import Type from 'typebox';
import {
  AddressFields,
  AnyValue,
  Choice,
  NullableBoolean,
  NullableNumber,
  NullableText,
  Open,
  Timestamp,
} from '../http/responses-identity.ts';

/** What the member calls answer (`/members/v1/members`), as the SDK's types/members.ts reads them. */

const MemberImage = Type.Object({
  id: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  height: Type.Optional(Type.Number()),
  width: Type.Optional(Type.Number()),
  offsetX: Type.Optional(NullableNumber),
  offsetY: Type.Optional(NullableNumber),
});

/** A member, in the fieldset the caller may see (PUBLIC leaves the contact out). */
export const Member = Type.Object({
  id: Type.Optional(NullableText),
  loginEmail: Type.Optional(NullableText),
  loginEmailVerified: Type.Optional(NullableBoolean),
  status: Type.Optional(Choice(['UNKNOWN', 'PENDING', 'APPROVED', 'BLOCKED', 'OFFLINE'])),
  contactId: Type.Optional(NullableText),
  contact: Type.Optional(
    Type.Object({
      firstName: Type.Optional(NullableText),
      lastName: Type.Optional(NullableText),
      phones: Type.Optional(
        Type.Unsafe<string[] | null>({ type: ['array', 'null'], items: { type: 'string' } }),
      ),
      emails: Type.Optional(
        Type.Unsafe<string[] | null>({ type: ['array', 'null'], items: { type: 'string' } }),
      ),
      addresses: Type.Optional(Type.Array(Open({ ...AddressFields, id: Type.Optional(NullableText) }))),
      birthdate: Type.Optional(NullableText),
      company: Type.Optional(NullableText),
      jobTitle: Type.Optional(NullableText),
      // named by the merchant: open by design
      customFields: Type.Optional(Type.Record(Type.String(), AnyValue)),
    }),
  ),
  profile: Type.Optional(
    Type.Object({
      nickname: Type.Optional(NullableText),
      slug: Type.Optional(NullableText),
      photo: Type.Optional(MemberImage),
      cover: Type.Optional(MemberImage),
      title: Type.Optional(NullableText),
    }),
  ),
  privacyStatus: Type.Optional(Choice(['PUBLIC', 'PRIVATE'])),
  activityStatus: Type.Optional(Choice(['ACTIVE', 'MUTED'])),
  role: Type.Optional(Choice(MEMBER_ROLES)),
  createdDate: Type.Optional(Timestamp),
  updatedDate: Type.Optional(Timestamp),
  lastLoginDate: Type.Optional(Timestamp),
});

export const MemberAnswer = Type.Object({ member: Member });

/** A page of members, with the offset paging's metadata. */
export const MemberPageAnswer = Type.Object({
  members: Type.Array(Member),
  metadata: Type.Object({
    count: Type.Number(),
    offset: Type.Number(),
    total: Type.Number(),
    tooManyToCount: Type.Boolean(),
  }),
});

const BulkMetadata = Type.Object({
  totalSuccesses: Type.Number(),
  totalFailures: Type.Number(),
  undetailedFailures: Type.Number(),
});

const ItemError = Type.Object({
  code: Type.String(),
  description: Type.String(),
  data: Type.Optional(Type.Record(Type.String(), AnyValue)),
});

export const BulkDeleteAnswer = Type.Object({
  results: Type.Array(
    Type.Object({
      itemMetadata: Type.Object({
        id: Type.String(),
        originalIndex: Type.Number(),
        success: Type.Boolean(),
        error: Type.Optional(ItemError),
      }),
    }),
  ),
  bulkActionMetadata: BulkMetadata,
});

export const JobStartedAnswer = Type.Object({ jobId: Type.String() });

/** A bulk job by filter: running or finished, with the members it could not act on. */
export const JobAnswer = Type.Object({
  job: Type.Object({
    id: Type.String(),
    action: Type.String(),
    status: Choice(['RUNNING', 'FINISHED']),
    createdDate: Timestamp,
    updatedDate: Timestamp,
    finishedDate: Type.Optional(Timestamp),
    bulkActionMetadata: BulkMetadata,
    results: Type.Array(
      Type.Object({
        itemMetadata: Type.Object({ id: Type.String(), success: Type.Literal(false), error: ItemError }),
      }),
    ),
  }),
});
