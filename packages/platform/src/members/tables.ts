/**
 * Members: the site's view of an identity. A member shares its identity's id; the login email, its
 * verification and the status are the identity's (one fact, one place) and are joined in on read.
 */
export interface MemberTables {
  members: MemberRow;
}

export interface MemberRow {
  id: string;
  contact_id: string;
  slug: string;
  privacy_status: 'PUBLIC' | 'PRIVATE';
  activity_status: 'ACTIVE' | 'MUTED';
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
}
