import { z } from 'zod';
import { accessModeSchema } from './access-mode';
import { cancelRequestStateSchema } from './cancel-request';

export const hostNameQuerySchema = z.object({
  hostName: z.string().trim().min(1, 'hostName is required').max(253, 'hostName is longer than 253 characters'),
});

/** Tenant lookup by host. An unknown host answers without a tenantId. */
export const tenantLookupSchema = z.object({
  tenantId: z.string().optional(),
  /** true only while the store is public (decision 105). */
  isWs2Public: z.boolean(),
  /** Who may see the store (decision 105); an unknown host answers `public` like `isWs2Public`. */
  accessMode: accessModeSchema,
  erpUrl: z.string().nullable(),
});
export type TenantLookup = z.infer<typeof tenantLookupSchema>;

export const tenantIdQuerySchema = z.object({
  tenantId: z.string().trim().min(1, 'tenantId is required').max(64),
});

export const tenantSchema = z.object({
  tenantId: z.string(),
  name: z.string(),
  isWs2Public: z.boolean(),
  accessMode: accessModeSchema,
  erpUrl: z.string().nullable(),
  productStores: z.array(
    z.object({
      tenantId: z.string(),
      productStoreId: z.string(),
      storeName: z.string(),
      hostName: z.string(),
      hostNames: z.array(z.string()),
    }),
  ),
  /** The tenant's cancel request (decision 028); absent where no one asked for it. */
  cancelRequest: cancelRequestStateSchema.optional(),
});
export type Tenant = z.infer<typeof tenantSchema>;
