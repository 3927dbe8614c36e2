/** Site members (`/v1/members`): their states of point 4 and the roles of point 6. */
import type { Address } from './common.ts';

export const MEMBER_STATUSES = ['UNKNOWN', 'PENDING', 'APPROVED', 'BLOCKED', 'OFFLINE'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** The older member status set some answers still carry. */
export const LEGACY_MEMBER_STATUSES = ['APPLICANT', 'ACTIVE', 'INACTIVE', 'BLOCKED', 'OFFLINE_ONLY'] as const;
export type LegacyMemberStatus = (typeof LEGACY_MEMBER_STATUSES)[number];

/** Whether a member takes part in the community: muted members can't post. */
export const MEMBER_ACTIVITY_STATUSES = ['ACTIVE', 'MUTED'] as const;
export type MemberActivityStatus = (typeof MEMBER_ACTIVITY_STATUSES)[number];

/** Whether other members see the profile. */
export const MEMBER_PRIVACY_STATUSES = ['PUBLIC', 'PRIVATE'] as const;
export type MemberPrivacyStatus = (typeof MEMBER_PRIVACY_STATUSES)[number];

export const MEMBER_ROLES = ['MEMBER', 'OWNER', 'CONTRIBUTOR'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** What an admin or the member can do to a membership (point 4). */
export const MEMBER_ACTIONS = [
  'approve',
  'block',
  'mute',
  'unmute',
  'disconnect',
  'joinCommunity',
  'leaveCommunity',
] as const;
export type MemberAction = (typeof MEMBER_ACTIONS)[number];

/** How much of a member an answer holds: public profile, plus contact, or everything. */
export const MEMBER_FIELDSETS = ['PUBLIC', 'EXTENDED', 'FULL'] as const;
export type MemberFieldset = (typeof MEMBER_FIELDSETS)[number];

/** Why a member verification failed (point 8). */
export const MEMBER_REASONS = ['BAD_CODE', 'NOT_FOUND', 'SEND_CODE_ERROR'] as const;
export type MemberReason = (typeof MEMBER_REASONS)[number];

export interface MemberImage {
  id?: string;
  url?: string;
  height?: number;
  width?: number;
  offsetX?: number | null;
  offsetY?: number | null;
}

export interface MemberContact {
  firstName?: string | null;
  lastName?: string | null;
  phones?: string[] | null;
  emails?: string[] | null;
  addresses?: Array<Address & { id?: string | null }>;
  /** `YYYY-MM-DD`: a calendar date, not an instant, so it stays a string. */
  birthdate?: string | null;
  company?: string | null;
  jobTitle?: string | null;
  /**
   * By name. Each value as the platform keeps it (`{strValue}`, `{numValue}` or `{dateValue}`); an
   * update may also give a plain string or number, or null to remove the field.
   */
  customFields?: Record<string, { name?: string | null; value?: unknown } | null>;
}

export interface MemberProfile {
  nickname?: string | null;
  slug?: string | null;
  photo?: MemberImage;
  cover?: MemberImage;
  title?: string | null;
}

export interface Member {
  id?: string | null;
  loginEmail?: string | null;
  loginEmailVerified?: boolean | null;
  status?: MemberStatus;
  contactId?: string | null;
  contact?: MemberContact;
  profile?: MemberProfile;
  privacyStatus?: MemberPrivacyStatus;
  activityStatus?: MemberActivityStatus;
  /** The store's owner is OWNER, its staff CONTRIBUTOR, everyone else MEMBER (point 3). */
  role?: MemberRole;
  createdDate?: Date;
  updatedDate?: Date;
  lastLoginDate?: Date;
}
