export { CARTWHEEL_API, type StaffMember, type StaffPermission, staffSession } from './staff-session.ts';
