export {
  type AuthClient,
  announceAuthChange,
  type CompleteLoginParams,
  finishDirectLogin,
  type LoginRedirectParams,
  type OAuthDataStore,
  refreshAfterAuthChange,
  sessionOAuthDataStore,
  type UseAuthOptions,
  useAuth,
  useLoggedIn,
} from './auth.ts';
export { CaptchaCheckError, type CaptchaOutcome, type UseCaptchaOptions, useCaptcha } from './captcha.ts';
export {
  type CartClient,
  type CheckoutStartClient,
  cartItemCount,
  cartMutations,
  cartQueries,
  type EstimateTotalsInput,
  type StartCheckoutOptions,
  startCheckoutMutation,
  useAddToCart,
  useApplyCoupon,
  useCartReplacedByOrder,
  useCurrentCart,
  useEstimateTotals,
  useRemoveCoupon,
  useRemoveLineItems,
  useStartCheckout,
  useUpdateLineItemQuantity,
} from './cart.ts';
export {
  type CatalogClient,
  catalogQueries,
  type ProductsQueryOptions,
  useCollectionBySlug,
  useCollections,
  useMerchantProduct,
  useProduct,
  useProductBySlug,
  useProductOptionsAvailability,
  useProducts,
  useSaveProduct,
} from './catalog.ts';
export { cartwheelKeys } from './keys.ts';
export {
  type BulkMemberAction,
  type BulkMembersOutcome,
  type MembersClient,
  memberQueries,
  useBulkMembers,
  useCurrentMember,
  useMembersQuery,
  useUpdateCurrentMember,
  useUpdateCurrentMemberSlug,
} from './members.ts';
export {
  type OrderAdminClient,
  type OrdersExportState,
  useDeleteOrderView,
  useOrdersExport,
  useOrderViews,
  useSaveOrderView,
} from './order-admin.ts';
export {
  type BulkOrderAction,
  type BulkOrderOutcome,
  useBulkOrderAction,
} from './order-bulk.ts';
export {
  type BillingClient,
  type FulfillmentsClient,
  type OrdersClient,
  orderQueries,
  useCancelOrder,
  useCapturePayments,
  useCreateFulfillment,
  useMyOrders,
  useOrder,
  useOrderAggregates,
  useOrderFulfillments,
  useOrderRefundability,
  useOrderSearch,
  useOrderTransactions,
  useRefundPayments,
  useRefundPreview,
  useUpdateOrderTags,
  useVoidPayments,
} from './orders.ts';
export {
  type AnyCartwheelClient,
  CartwheelProvider,
  type CartwheelProviderProps,
  useCartwheel,
} from './provider.tsx';
export {
  CACHE_LIFETIME_MS,
  createCartwheelQueryClient,
  isNotFoundError,
  QUERY_RETRY_BASE_DELAY_MS,
  QUERY_RETRY_COUNT,
  QUERY_RETRY_MAX_DELAY_MS,
  retryDelay,
  shouldRetry,
} from './query-client.ts';
export { allows, type StaffClient, useCurrentStaff } from './staff.ts';
