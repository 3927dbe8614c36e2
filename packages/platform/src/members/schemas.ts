import { MEMBER_FIELDSETS, MEMBER_PRIVACY_STATUSES } from '@cartwheel/sdk';
import Type from 'typebox';
import {
  BuyerAddress,
  Id,
  NotSupportedYet,
  Nullable,
  OneOf,
  OpenObject,
  Text,
  URL_MAX_LENGTH,
} from '../http/input.ts';
import { EMAIL_MAX_LENGTH } from '../identity/errors.ts';
import { PROFILE_LIST_MAX } from '../identity/profile.ts';
import { MAX_FILTER_TEXT } from '../shared/filter-budget.ts';
import { BULK_MAX } from './bulk.ts';
import { CONTACT_LIST_MAX, TEXT_MAX_LENGTH } from './changes.ts';
import { MAX_LIMIT, MAX_OFFSET } from './query.ts';
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
          phones: Type.Optional(Nullable(Type.Array(Text(254), { maxItems: CONTACT_LIST_MAX }))),
          emails: Type.Optional(Nullable(Type.Array(Text(254), { maxItems: CONTACT_LIST_MAX }))),
          addresses: Type.Optional(
            Nullable(
              Type.Array(Type.Object({ ...BuyerAddress.properties, id: Type.Optional(Nullable(Id())) }), {
                maxItems: CONTACT_LIST_MAX,
              }),
            ),
          ),
          // point 3's custom fields by name: a string, a number or a date (identity/profile.ts)
          customFields: Type.Optional(
            Nullable(
              Type.Record(
                Text(200),
                Nullable(
                  Type.Object({
                    name: Type.Optional(Nullable(Text(200))),
                    value: Type.Union([
                      Text(TEXT_MAX_LENGTH),
                      Type.Number(),
                      Type.Object({
                        strValue: Type.Optional(Nullable(Text(TEXT_MAX_LENGTH))),
                        numValue: Type.Optional(Nullable(Type.Number())),
                        dateValue: Type.Optional(Nullable(Text(40))),
                      }),
                    ]),
                  }),
                ),
                { maxProperties: PROFILE_LIST_MAX },
              ),
            ),
          ),
        }),
      ),
      profile: Type.Optional(
        Type.Object({
          nickname: MemberText,
          slug: Type.Optional(Slug),
          photo: Type.Optional(Type.Object({ url: Type.Optional(Nullable(Text(URL_MAX_LENGTH))) })),
          // the hosted profile's cover picture and title, which Cartwheel does not keep yet
          cover: NotSupportedYet(),
          title: NotSupportedYet(),
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

// ---- member administration (issue 21) ----

const Fieldsets = Type.Optional(Type.Array(OneOf(MEMBER_FIELDSETS), { maxItems: 3 }));
const Paging = Type.Optional(
  Type.Object({
    limit: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_LIMIT }))),
    offset: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: MAX_OFFSET }))),
  }),
);
const Sorting = Type.Optional(
  Type.Array(
    Type.Object({
      fieldName: Type.Optional(Text(100)),
      order: Type.Optional(Nullable(OneOf(['ASC', 'DESC']))),
    }),
    { maxItems: 5 },
  ),
);
const Filter = OpenObject(
  'compiled field by field by members/query.ts, which names a field it does not filter on',
);
const Search = Type.Optional(
  Type.Object({
    expression: Type.Optional(Nullable(Text(MAX_FILTER_TEXT))),
    fields: Type.Optional(Type.Array(Text(100), { maxItems: 10 })),
  }),
);

/** `GET /v1/members/my`: `fieldsets` (the hosted client's name) or `fieldSet`. */
export const GetMyMemberQuery = Type.Object({
  fieldsets: Fieldsets,
  fieldSet: Type.Optional(OneOf(MEMBER_FIELDSETS)),
});
/** `GET /v1/members/{id}`: the id repeated in the query, and the fieldsets. */
export const GetMemberQuery = Type.Object({ id: Type.Optional(Id()), fieldsets: Fieldsets });
/** `GET /v1/members` (`.r`): paging, fieldsets, sorting. */
export const ListMembersQuery = Type.Object({ paging: Paging, fieldsets: Fieldsets, sorting: Sorting });
/** `POST /v1/members/query` {query: {filter, paging, sorting}, fieldsets, search}. */
export const QueryMembersBody = Type.Object({
  query: Type.Optional(
    Type.Object({ filter: Type.Optional(Nullable(Filter)), paging: Paging, sorting: Sorting, sort: Sorting }),
  ),
  fieldsets: Fieldsets,
  search: Search,
});
/** `POST /v1/members/{id}/slug` {id, slug}. */
export const MemberSlugBody = Type.Object({ id: Type.Optional(Id()), slug: Type.Optional(Slug) });
/** `DELETE /v1/members/my?contentAssigneeId=`. */
export const DeleteMyMemberQuery = Type.Object({ contentAssigneeId: Type.Optional(Id()) });
/** `POST /v1/members/bulk/delete` {memberIds}. */
export const BulkDeleteBody = Type.Object({
  memberIds: Type.Optional(Type.Array(Id(), { maxItems: BULK_MAX })),
});
/** `POST /v1/members/bulk/{delete,approve,block}-by-filter` {filter, contentAssigneeId, search}. */
export const BulkByFilterBody = Type.Object({
  filter: Type.Optional(Nullable(Filter)),
  contentAssigneeId: Type.Optional(Nullable(Id())),
  search: Search,
});
/** `POST /v1/members` {member}: the update's fields, with the login email. */
export const CreateMemberBody = UpdateMemberBody;
export const JobParams = Type.Object({ jobId: Id() });
