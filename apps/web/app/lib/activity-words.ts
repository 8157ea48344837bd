import type { HomeActivity } from '@app/contracts';

/**
 * The home's activity feed in the owner's words: the audit log keeps entity names, ids and field keys
 * (`product`, `promo_code`, `priceMinor`), which mean nothing to an owner. Known ones get a label;
 * unknown keys are split into words rather than shown raw. An id is kept only where the owner knows
 * the thing by it (an order number, a promo code); elsewhere it is noise.
 */

const ENTITIES: Record<string, string> = {
  product: 'a product',
  theme: 'the theme',
  'store.theme': 'the theme',
  order: 'order',
  'order.view': 'order',
  promo_code: 'promo code',
  'store.promotion': 'a promotion',
  category: 'a category',
  'catalog.category': 'a category',
  'category.rollup': 'category totals',
  catalog: 'the catalog',
  banner: 'a banner',
  banners: 'the banners',
  page: 'a page',
  'cms.page': 'a page',
  review: 'a review',
  return: 'a return',
  cancel_request: 'a cancellation request',
  contact_message: 'a message',
  customer: 'a customer',
  'customer.note': 'a customer note',
  media: 'a picture',
  payment_config: 'the payment settings',
  'store.payments': 'the payment settings',
  payment_issue: 'a payment issue',
  paypal_seller: 'the PayPal connection',
  sitemap: 'the sitemap',
  staff: 'a staff member',
  'staff.invitation': 'a staff invitation',
  'customer.access': "a customer's access",
  'customer.invitation': 'a customer invitation',
  tenant: 'the store',
  'store.details': 'the store details',
  'store.settings': 'the store settings',
  'tax.settings': 'the tax settings',
  'tax.rate': 'a tax rate',
  'marketplace.connection': 'the marketplace connection',
  'marketplace.feed': 'the marketplace feed',
};

/** Entities the owner names by their id: the id follows the label ("order 1042"). */
const NAMED_BY_ID = new Set(['order', 'order.view', 'promo_code']);

const ACTIONS: Record<string, string> = {
  create: 'created',
  update: 'changed',
  'update-details': 'changed',
  delete: 'deleted',
  publish: 'published',
  'draft.save': 'saved a draft of',
  'access-mode': 'changed who can see',
  approve: 'approved',
  decline: 'declined',
};

const FIELDS: Record<string, string> = {
  primary: 'main colour',
  secondary: 'second colour',
  priceMinor: 'price',
  price: 'price',
  salePriceMinor: 'sale price',
  compareAtPriceMinor: 'compare-at price',
  productName: 'title',
  name: 'name',
  sku: 'SKU',
  seoTitle: 'search title',
  seoDescription: 'search description',
  isFeatured: 'featured',
  stockQuantity: 'stock',
  lowStockThreshold: 'low-stock level',
  status: 'status',
  imageUrl: 'picture',
  categoryIds: 'categories',
  url: 'address',
};

/** `salePriceMinor` -> "sale price", `shipping_fee` -> "shipping fee". */
export function fieldLabel(key: string): string {
  const known = FIELDS[key];
  if (known) return known;
  return key
    .replace(/Minor$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.-]+/g, ' ')
    .trim()
    .toLowerCase();
}

export function entityLabel(entity: string, entityId: string): string {
  const label = ENTITIES[entity] ?? `a ${fieldLabel(entity)}`;
  return NAMED_BY_ID.has(entity) && entityId ? `${label} ${entityId}` : label;
}

export function actionLabel(action: string): string {
  return ACTIONS[action] ?? fieldLabel(action);
}

/** "changed a product (price, sale price)": the words after the actor's name. */
export function activityWords(e: Pick<HomeActivity, 'entity' | 'entityId' | 'action' | 'changedFields'>): string {
  const fields = [...new Set(e.changedFields.map(fieldLabel))];
  return `${actionLabel(e.action)} ${entityLabel(e.entity, e.entityId)}${fields.length ? ` (${fields.join(', ')})` : ''}`;
}
