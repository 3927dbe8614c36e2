/** Cartwheel's own back-office calls: `createClient({ auth, modules: { orderAdmin, staffSession } })`. */
export { CARTWHEEL_API } from './domains.ts';
export {
  type OrdersExportChunk,
  type OrdersExportOptions,
  type OrderView,
  orderAdmin,
} from './order-admin.ts';
export { type StaffMember, type StaffPermission, staffSession } from './staff-session.ts';
