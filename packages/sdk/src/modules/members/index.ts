/** The members module: `createClient({ auth, modules: { members } })`. */
export { MEMBERS } from './domains.ts';
export {
  type BulkDeleteMembersByFilterOptions,
  type BulkDeleteMembersResult,
  type BulkMemberResult,
  type BulkMembersJob,
  type BulkMembersJobProgress,
  type DeleteMyMemberOptions,
  type FieldsetOptions,
  type ListMembersOptions,
  type MemberQuery,
  type MemberSearch,
  type MemberUpdate,
  members,
  type QueryMembersOptions,
} from './members.ts';
