/** Cartwheel's own calls: `createClient({ auth, modules: { orderAdmin, staffSession, cartwheelMedia } })`. */
export { CARTWHEEL_API } from './domains.ts';
export { cartwheelMailbox, type MailboxMessage, type MailboxQuery } from './mailbox.ts';
export { cartwheelMedia, type UploadableImageType, type UploadedMedia } from './media.ts';
export {
  type OrdersExportChunk,
  type OrdersExportOptions,
  type OrderView,
  orderAdmin,
  type VoidAndCancelOrderResponse,
} from './order-admin.ts';
export { type SecondFactors, type SecondFactorType, secondFactors } from './second-factors.ts';
export { type StaffMember, type StaffPermission, staffSession } from './staff-session.ts';
export * from './store-admin.ts';
