// Zod-free: the browser's code reads these too (client.ts).

/** What a staff member may be granted; the same names as apps/api lib/context.ts PERMISSIONS. */
export const STAFF_PERMISSIONS = ['settings', 'catalog', 'orders', 'customers', 'payments'] as const;
export type StaffPermission = (typeof STAFF_PERMISSIONS)[number];

/** What each permission lets a staff member do, for the invite form. */
export const STAFF_PERMISSION_LABELS: Record<StaffPermission, { label: string; hint: string }> = {
  settings: { label: 'Settings', hint: 'Theme, banners, pages, store details; view access and the activity log' },
  catalog: { label: 'Products', hint: 'Catalogs, categories and products' },
  orders: { label: 'Orders', hint: 'Orders, returns and promotions' },
  customers: { label: 'Customers', hint: 'Customer accounts and newsletter subscribers' },
  payments: { label: 'Payments', hint: 'Payment provider set-up' },
};
