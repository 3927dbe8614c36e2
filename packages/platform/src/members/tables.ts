/**
 * Members: the site's view of an identity. A member shares its identity's id; the login email, its
 * verification and the status are the identity's (one fact, one place) and are joined in on read.
 */
export interface MemberTables {
  members: MemberRow;
  member_jobs: MemberJobRow;
}

export interface MemberRow {
  id: string;
  contact_id: string;
  /** Unique whatever its case (`members_slug_lower`). */
  slug: string;
  privacy_status: 'PUBLIC' | 'PRIVATE';
  activity_status: 'ACTIVE' | 'MUTED';
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
  /** Set when the member is deleted: the member who receives their content. */
  content_assignee_id?: string | null;
}

export type MemberJobAction = 'DELETE' | 'APPROVE' | 'BLOCK';

/** A bulk call by filter, worked in batches by whichever process holds its lease. */
export interface MemberJobRow {
  id: string;
  action: MemberJobAction;
  status: 'RUNNING' | 'FINISHED';
  filter: string;
  search: string | null;
  content_assignee_id: string | null;
  requested_by: string | null;
  cursor: string | null;
  succeeded: number;
  failed: number;
  failures: string;
  lease_until: string | null;
  lease_owner: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}
