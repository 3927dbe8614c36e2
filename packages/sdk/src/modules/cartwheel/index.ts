/** Cartwheel's own back-office calls: `createClient({ auth, modules: { orderAdmin } })`. */
export {
  CARTWHEEL_API,
  type OrdersExportChunk,
  type OrdersExportOptions,
  type OrderView,
  orderAdmin,
} from './order-admin.ts';
