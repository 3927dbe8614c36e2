import { MEMBER_PRIVACY_STATUSES } from '@cartwheel/sdk';
import Type from 'typebox';
import { Id, Nullable, OneOf, Text, URL_MAX_LENGTH } from '../http/input.ts';
import { EMAIL_MAX_LENGTH } from '../identity/errors.ts';
import { TEXT_MAX_LENGTH } from './changes.ts';
import { SLUG_MAX_LENGTH } from './slug.ts';

/**
 * The member calls' inputs, as the hosted client sends them (wire contract, Members). Types and sizes
 * only: the rules (a slug's format, a date, a blank nickname) are the service's, which names the field.
 */

const MemberText = Type.Optional(Nullable(Text(TEXT_MAX_LENGTH)));
const Slug = Text(SLUG_MAX_LENGTH);

export const MySlugBody = Type.Object({ slug: Type.Optional(Slug) });

/** `PATCH /v1/members/{id}` {member}: only the fields it holds change. */
export const UpdateMemberBody = Type.Object({
  member: Type.Optional(
    Type.Object({
      id: Type.Optional(Nullable(Id())),
      loginEmail: Type.Optional(Nullable(Text(EMAIL_MAX_LENGTH))),
      contact: Type.Optional(
        Type.Object({
          firstName: MemberText,
          lastName: MemberText,
          company: MemberText,
          jobTitle: MemberText,
          birthdate: MemberText,
        }),
      ),
      profile: Type.Optional(
        Type.Object({
          nickname: MemberText,
          slug: Type.Optional(Slug),
          photo: Type.Optional(Type.Object({ url: Type.Optional(Nullable(Text(URL_MAX_LENGTH))) })),
        }),
      ),
      privacyStatus: Type.Optional(OneOf(MEMBER_PRIVACY_STATUSES)),
    }),
  ),
});

/** `POST /v1/members/{id}/block` and `/approve`: the hosted client repeats the id in the body. */
export const MemberActionBody = Type.Object({ id: Type.Optional(Id()) });

/** `DELETE /v1/members/{id}`: the hosted client repeats the id in the query. */
export const DeleteMemberQuery = Type.Object({ id: Type.Optional(Id()) });
