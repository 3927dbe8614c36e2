import type {
  BoundModule,
  CheckoutSettingsPatch,
  CheckoutTemplateInput,
  CreateApiKeyInput,
  DiscountRule,
  IdentitySettings,
  PaymentSettings,
  StaffPermission,
  StoreCouponInput,
  StorePickupLocationInput,
  StoreSettings,
  StoreShippingRegionInput,
  storeAdmin,
  TaxRegionInput,
} from '@cartwheel/sdk';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCartwheel } from './provider.tsx';

/** What the settings hooks need of the client: the SDK's `storeAdmin` module (Cartwheel's own admin calls). */
export interface StoreAdminClient {
  storeAdmin: BoundModule<typeof storeAdmin>;
}

/** Query keys of the store's administration, under `cartwheel` like every other key. */
export const storeAdminKeys = {
  all: ['cartwheel', 'storeAdmin'] as const,
  permissions: ['cartwheel', 'storeAdmin', 'permissions'] as const,
  roles: ['cartwheel', 'storeAdmin', 'roles'] as const,
  staff: ['cartwheel', 'storeAdmin', 'staff'] as const,
  apiKeys: ['cartwheel', 'storeAdmin', 'apiKeys'] as const,
  auditLog: (before: string | undefined) => ['cartwheel', 'storeAdmin', 'auditLog', { before }] as const,
  auditLogAll: ['cartwheel', 'storeAdmin', 'auditLog'] as const,
  paymentSettings: ['cartwheel', 'storeAdmin', 'paymentSettings'] as const,
  identitySettings: ['cartwheel', 'storeAdmin', 'identitySettings'] as const,
  storeSettings: ['cartwheel', 'storeAdmin', 'storeSettings'] as const,
  taxRegions: ['cartwheel', 'storeAdmin', 'taxRegions'] as const,
  coupons: ['cartwheel', 'storeAdmin', 'coupons'] as const,
  shippingRegions: ['cartwheel', 'storeAdmin', 'shippingRegions'] as const,
  pickupLocations: ['cartwheel', 'storeAdmin', 'pickupLocations'] as const,
  checkoutSettings: ['cartwheel', 'storeAdmin', 'checkoutSettings'] as const,
  discountRules: ['cartwheel', 'storeAdmin', 'discountRules'] as const,
  checkoutTemplates: ['cartwheel', 'storeAdmin', 'checkoutTemplates'] as const,
  abandonedCheckouts: ['cartwheel', 'storeAdmin', 'abandonedCheckouts'] as const,
};

/** A change to the store's administration: the reads it touches, and the audit log, are refetched. */
function useAdminChange<I, O>(
  run: (client: StoreAdminClient, input: I) => Promise<O>,
  touches: readonly unknown[][],
) {
  const client = useCartwheel<StoreAdminClient>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => run(client, input),
    onSettled: async () => {
      await Promise.all(
        [...touches, [...storeAdminKeys.auditLogAll]].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}

export function usePermissions() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({
    queryKey: storeAdminKeys.permissions,
    queryFn: () => client.storeAdmin.listPermissions(),
  });
}

export function useStaffRoles() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({ queryKey: storeAdminKeys.roles, queryFn: () => client.storeAdmin.listRoles() });
}

export function useStaff() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({ queryKey: storeAdminKeys.staff, queryFn: () => client.storeAdmin.listStaff() });
}

export function useApiKeys() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({ queryKey: storeAdminKeys.apiKeys, queryFn: () => client.storeAdmin.listApiKeys() });
}

/** A page of the audit log, newest first; `before` is the previous page's `nextCursor`. */
export function useAuditLog(before: string | undefined, limit = 50) {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({
    queryKey: storeAdminKeys.auditLog(before),
    queryFn: () => client.storeAdmin.listAuditLog({ limit, ...(before ? { before } : {}) }),
    placeholderData: keepPreviousData,
  });
}

export function usePaymentSettings() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({
    queryKey: storeAdminKeys.paymentSettings,
    queryFn: () => client.storeAdmin.getPaymentSettings(),
  });
}

/** How members join and sign in, and whether staff who move money take a second step. */
export function useIdentitySettings() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({
    queryKey: storeAdminKeys.identitySettings,
    queryFn: () => client.storeAdmin.getIdentitySettings(),
  });
}

export function useStoreSettings() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({
    queryKey: storeAdminKeys.storeSettings,
    queryFn: () => client.storeAdmin.getStoreSettings(),
  });
}

export function useCreateRole() {
  return useAdminChange(
    (client, role: { name: string; permissions: StaffPermission[] }) => client.storeAdmin.createRole(role),
    [[...storeAdminKeys.roles]],
  );
}

export function useUpdateRole() {
  return useAdminChange(
    (client, input: { id: string; role: { name?: string; permissions?: StaffPermission[] } }) =>
      client.storeAdmin.updateRole(input.id, input.role),
    [[...storeAdminKeys.roles], [...storeAdminKeys.staff]],
  );
}

export function useDeleteRole() {
  return useAdminChange(
    (client, id: string) => client.storeAdmin.deleteRole(id),
    [[...storeAdminKeys.roles]],
  );
}

export function useInviteStaff() {
  return useAdminChange(
    (client, invitation: { email: string; roleId: string }) => client.storeAdmin.inviteStaff(invitation),
    [[...storeAdminKeys.staff]],
  );
}

/** Suspend, reinstate or remove a staff member, or give them another role. */
export function useStaffAction() {
  return useAdminChange(
    (
      client,
      input:
        | { id: string; action: 'suspend' | 'reinstate' | 'remove' }
        | { id: string; action: 'changeRole'; roleId: string },
    ): Promise<unknown> => {
      const admin = client.storeAdmin;
      switch (input.action) {
        case 'suspend':
          return admin.suspendStaff(input.id);
        case 'reinstate':
          return admin.reinstateStaff(input.id);
        case 'remove':
          return admin.removeStaff(input.id);
        case 'changeRole':
          return admin.changeStaffRole(input.id, input.roleId);
      }
    },
    [[...storeAdminKeys.staff]],
  );
}

export function useCreateApiKey() {
  return useAdminChange(
    (client, input: CreateApiKeyInput) => client.storeAdmin.createApiKey(input),
    [[...storeAdminKeys.apiKeys]],
  );
}

export function useRevokeApiKey() {
  return useAdminChange(
    (client, id: string) => client.storeAdmin.revokeApiKey(id),
    [[...storeAdminKeys.apiKeys]],
  );
}

/**
 * The store's payments beside each provider's own records for `period` (read-only, though sent as a
 * POST): nothing is asked until a period is given; each period's answer is kept as any read is.
 */
export function useReconciliation(period: { from: string; to: string } | undefined) {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({
    queryKey: ['cartwheel', 'storeAdmin', 'reconciliation', period?.from, period?.to],
    queryFn: () => client.storeAdmin.reconcilePayments(period!),
    enabled: period !== undefined,
  });
}

export function useUpdateIdentitySettings() {
  return useAdminChange(
    (client, settings: Partial<IdentitySettings>) => client.storeAdmin.updateIdentitySettings(settings),
    [[...storeAdminKeys.identitySettings]],
  );
}

export function useUpdatePaymentSettings() {
  return useAdminChange(
    (client, settings: PaymentSettings) => client.storeAdmin.updatePaymentSettings(settings),
    [[...storeAdminKeys.paymentSettings]],
  );
}

export function useUpdateStoreSettings() {
  return useAdminChange(
    (client, settings: Partial<StoreSettings>) => client.storeAdmin.updateStoreSettings(settings),
    [[...storeAdminKeys.storeSettings]],
  );
}

export function useTaxRegions() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({ queryKey: storeAdminKeys.taxRegions, queryFn: () => client.storeAdmin.listTaxRegions() });
}

export function useCreateTaxRegion() {
  return useAdminChange(
    (client, region: TaxRegionInput) => client.storeAdmin.createTaxRegion(region),
    [[...storeAdminKeys.taxRegions]],
  );
}

export function useDeleteTaxRegion() {
  return useAdminChange(
    (client, id: string) => client.storeAdmin.deleteTaxRegion(id),
    [[...storeAdminKeys.taxRegions]],
  );
}

export function useCoupons() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({ queryKey: storeAdminKeys.coupons, queryFn: () => client.storeAdmin.listCoupons() });
}

export function useCreateCoupon() {
  return useAdminChange(
    (client, coupon: StoreCouponInput) => client.storeAdmin.createCoupon(coupon),
    [[...storeAdminKeys.coupons]],
  );
}

export function useDeleteCoupon() {
  return useAdminChange(
    (client, id: string) => client.storeAdmin.deleteCoupon(id),
    [[...storeAdminKeys.coupons]],
  );
}

export function useShippingRegions() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({
    queryKey: storeAdminKeys.shippingRegions,
    queryFn: () => client.storeAdmin.listShippingRegions(),
  });
}

export function useCreateShippingRegion() {
  return useAdminChange(
    (client, region: StoreShippingRegionInput) => client.storeAdmin.createShippingRegion(region),
    [[...storeAdminKeys.shippingRegions]],
  );
}

export function useDeleteShippingRegion() {
  return useAdminChange(
    (client, id: string) => client.storeAdmin.deleteShippingRegion(id),
    [[...storeAdminKeys.shippingRegions]],
  );
}

export function useUpdateTaxRegion() {
  return useAdminChange(
    (client, input: { id: string; taxRegion: Partial<TaxRegionInput> }) =>
      client.storeAdmin.updateTaxRegion(input.id, input.taxRegion),
    [[...storeAdminKeys.taxRegions]],
  );
}

export function useUpdateCoupon() {
  return useAdminChange(
    (client, input: { id: string; coupon: Partial<StoreCouponInput> }) =>
      client.storeAdmin.updateCoupon(input.id, input.coupon),
    [[...storeAdminKeys.coupons]],
  );
}

export function useUpdateShippingRegion() {
  return useAdminChange(
    (client, input: { id: string; shippingRegion: Partial<StoreShippingRegionInput> }) =>
      client.storeAdmin.updateShippingRegion(input.id, input.shippingRegion),
    [[...storeAdminKeys.shippingRegions]],
  );
}

export function usePickupLocations() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({
    queryKey: storeAdminKeys.pickupLocations,
    queryFn: () => client.storeAdmin.listPickupLocations(),
  });
}

/** Creates a pickup location (without `id`) or changes one. */
export function useSavePickupLocation() {
  return useAdminChange(
    (client, input: { id?: string | undefined; pickupLocation: StorePickupLocationInput }) =>
      input.id
        ? client.storeAdmin.updatePickupLocation(input.id, input.pickupLocation)
        : client.storeAdmin.createPickupLocation(input.pickupLocation),
    [[...storeAdminKeys.pickupLocations]],
  );
}

export function useDeletePickupLocation() {
  return useAdminChange(
    (client, id: string) => client.storeAdmin.deletePickupLocation(id),
    [[...storeAdminKeys.pickupLocations]],
  );
}

export function useCheckoutSettings() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({
    queryKey: storeAdminKeys.checkoutSettings,
    queryFn: () => client.storeAdmin.getCheckoutSettings(),
  });
}

/** Saves what the patch names of the checkout settings (the header's logo, alignment, colours...). */
export function useUpdateCheckoutSettings() {
  return useAdminChange(
    (client, patch: CheckoutSettingsPatch) => client.storeAdmin.updateCheckoutSettings(patch),
    [[...storeAdminKeys.checkoutSettings]],
  );
}

/** Every abandoned checkout, oldest first, ABANDONED or RECOVERED. */
export function useAbandonedCheckouts() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({
    queryKey: storeAdminKeys.abandonedCheckouts,
    queryFn: () => client.storeAdmin.listAbandonedCheckouts(),
  });
}

/** Every checkout template, oldest first. */
export function useCheckoutTemplates() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({
    queryKey: storeAdminKeys.checkoutTemplates,
    queryFn: () => client.storeAdmin.listCheckoutTemplates(),
  });
}

/** Creates a checkout template (no `id`) or changes one. */
export function useSaveCheckoutTemplate() {
  return useAdminChange(
    (client, input: { id?: string; template: CheckoutTemplateInput }) =>
      input.id
        ? client.storeAdmin.updateCheckoutTemplate(input.id, input.template)
        : client.storeAdmin.createCheckoutTemplate(input.template),
    [[...storeAdminKeys.checkoutTemplates]],
  );
}

export function useDeleteCheckoutTemplate() {
  return useAdminChange(
    (client, id: string) => client.storeAdmin.deleteCheckoutTemplate(id),
    [[...storeAdminKeys.checkoutTemplates]],
  );
}

/** Every discount rule, oldest first, each with its LIVE / PENDING / EXPIRED `status`. */
export function useDiscountRules() {
  const client = useCartwheel<StoreAdminClient>();
  return useQuery({
    queryKey: storeAdminKeys.discountRules,
    queryFn: () => client.storeAdmin.listDiscountRules(),
  });
}

/** Creates a discount rule (without `id`) or changes one. Cart prices follow on their next read. */
export function useSaveDiscountRule() {
  return useAdminChange(
    (client, input: { id?: string | undefined; discountRule: DiscountRule }) =>
      input.id
        ? client.storeAdmin.updateDiscountRule(input.id, input.discountRule)
        : client.storeAdmin.createDiscountRule(input.discountRule),
    [[...storeAdminKeys.discountRules]],
  );
}

export function useDeleteDiscountRule() {
  return useAdminChange(
    (client, id: string) => client.storeAdmin.deleteDiscountRule(id),
    [[...storeAdminKeys.discountRules]],
  );
}
