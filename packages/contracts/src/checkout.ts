import { z } from 'zod';
import { POSTAL_CODE_RULES, postalCodeFits } from './address-fields';
import { addressInputSchema, addressSchema } from './addresses';
import { cardCreateSchema } from './cards';
import { orderStatuses } from './order-status';
import { returnableLineSchema, returnRequestSchema } from './returns';
import { textInt } from './strict-input';

/** Where an order goes: a saved address of the shopper, or one typed at checkout. */
export const shipToSchema = addressInputSchema.omit({ isDefaultShipping: true, isDefaultBilling: true });

/**
 * Where the rates are for. The postal code is optional (the page asks for rates before it is typed);
 * given, it must have the country's form (US ZIP 12345 or 12345-6789, Canada A1A 1A1, ...), since
 * carriers quote by it (decision 117).
 */
export const destinationQuerySchema = z
  .strictObject({
    countryGeoId: z.string().trim().max(10).default('USA'),
    stateProvinceGeoId: z.string().trim().max(20).optional(),
    postalCode: z.string().trim().max(12).optional(),
  })
  .superRefine((d, ctx) => {
    if (d.postalCode !== undefined && !postalCodeFits(d.countryGeoId, d.postalCode)) {
      const rule = POSTAL_CODE_RULES[d.countryGeoId];
      ctx.addIssue({
        code: 'custom',
        path: ['postalCode'],
        message: `postalCode: this is not a postal code of that country${rule ? ` (for example ${rule.example})` : ''}.`,
      });
    }
  });

export const shippingRateSchema = z.object({
  methodId: z.string(),
  name: z.string(),
  description: z.string(),
  /** Integer minor units; 0 when the order ships free. */
  rate: z.number().int(),
  /** Spend this much more (discounted subtotal) to ship free; null when it never is or already is. */
  freeAbove: z.number().int().nullable(),
  /**
   * When it ships and arrives, from the method's handling days and delivery estimate or the
   * carrier's transit days ("Ships in 2 business days · Arrives in 3–5 business days"; pickup:
   * "Ready for pickup in 1 business day"); null when the store set neither. `deliveryPromise` writes it.
   */
  delivery: z.string().nullable(),
});
export type ShippingRate = z.infer<typeof shippingRateSchema>;

export const quoteSchema = z.object({
  currency: z.string(),
  subtotal: z.number().int(),
  discount: z.number().int(),
  shipping: z.number().int(),
  tax: z.number().int(),
  taxLabel: z.string().nullable(),
  /** The prices held the tax (decision 116): `tax` is inside the total, not added to it. */
  taxIncluded: z.boolean(),
  total: z.number().int(),
});
export type Quote = z.infer<typeof quoteSchema>;

const payment = z.discriminatedUnion('method', [
  cardCreateSchema.omit({ billingContactMechId: true }).extend({ method: z.literal('card') }),
  z.strictObject({
    method: z.literal('saved-card'),
    paymentMethodId: z.string().trim().min(1, 'paymentMethodId: choose one of your saved cards.').max(64),
  }),
]);

/** POST /ecommerce/checkout/processorder (with an Idempotency-Key header). */
export const placeOrderSchema = z.strictObject({
  /** Required for guests; a signed-in shopper's account email is used otherwise. */
  email: z.email('Please enter a valid email address.').max(200).optional(),
  shipTo: shipToSchema,
  shippingMethodId: z.string().trim().min(1, 'Please choose a shipping method.').max(64),
  payment,
});
export type PlaceOrder = z.infer<typeof placeOrderSchema>;

/**
 * POST /public/ecommerce/createPaypalOrder: the checkout without the payment, which PayPal takes.
 * The capture (POST /public/ecommerce/capturePaypalOrder) names the PayPal order only.
 */
export const payPalCheckoutSchema = placeOrderSchema.omit({ payment: true });
export type PayPalCheckout = z.infer<typeof payPalCheckoutSchema>;
export const payPalCaptureSchema = z.strictObject({
  paypalOrderId: z
    .string()
    .trim()
    .regex(/^[A-Z0-9-]{1,64}$/i, 'paypalOrderId: this is not a PayPal order id.'),
});
export const payPalCreatedSchema = z.object({ paypalOrderId: z.string(), approveUrl: z.url() });

/**
 * POST /ecommerce/checkout/create/postaladdress/andPurpose: a new address saved from checkout, for
 * shipping (the default) or billing; with `setDefault` it becomes the default for that purpose.
 */
export const checkoutAddressSchema = addressInputSchema
  .omit({ isDefaultShipping: true, isDefaultBilling: true })
  .extend({
    contactMechPurposeTypeId: z.enum(['SHIPPING_LOCATION', 'BILLING_LOCATION']).default('SHIPPING_LOCATION'),
    setDefault: z.boolean().default(false),
  });

/** POST /ecommerce/checkout/review: what the order would cost, before paying. */
export const reviewRequestSchema = placeOrderSchema.omit({ payment: true, email: true });

/** An address as the order keeps it: a copy, not a link to the address book. */
export const orderAddressSchema = addressSchema.omit({
  contactMechId: true,
  isDefaultShipping: true,
  isDefaultBilling: true,
});

export const orderSchema = z.object({
  orderId: z.string(),
  status: z.enum(orderStatuses),
  statusLabel: z.string(),
  placedAt: z.string(),
  email: z.string(),
  currency: z.string(),
  lines: z.array(
    z.object({
      lineNo: z.number().int(),
      productId: z.string(),
      /** The variant bought (decision 112); null only on lines of products deleted before variants. */
      variantId: z.string().nullable(),
      /** "Brass / Large" as it was when ordered; '' for a default variant. */
      variantTitle: z.string(),
      /** The variant's SKU as it was when ordered. */
      sku: z.string().nullable(),
      productName: z.string(),
      /** The product's slug now, for its link (`/{slug}/{productId}`); null when it is gone from the catalog. */
      slug: z.string().nullable(),
      /** The product's picture now (absolute URL), if it has one. */
      imageUrl: z.string().nullable(),
      optionsText: z.string().nullable(),
      quantity: z.number().int(),
      unitPrice: z.number().int(),
      lineTotal: z.number().int(),
    }),
  ),
  subtotal: z.number().int(),
  discount: z.number().int(),
  promoCode: z.string().nullable(),
  shipping: z.number().int(),
  tax: z.number().int(),
  /** The prices held the tax (decision 116): `tax` is inside the total, not added to it. */
  taxIncluded: z.boolean(),
  total: z.number().int(),
  shippingMethod: z.string(),
  /** The address as kept, with the names of its region ("California") and country, for display. */
  shipTo: orderAddressSchema.extend({ regionName: z.string().nullable(), countryName: z.string() }),
  payment: z.string(),
  history: z.array(z.object({ status: z.enum(orderStatuses), note: z.string().nullable(), at: z.string() })),
  /** For guests: the signed link to this order (confirmation page and email). */
  accessKey: z.string().nullable(),
  /** Parcels the store sent, oldest first, with the carrier's tracking link. */
  shipments: z.array(
    z.object({
      carrierName: z.string(),
      trackingNumber: z.string().nullable(),
      trackingUrl: z.string().nullable(),
      shippedAt: z.string(),
    }),
  ),
  /** Money given back (succeeded refunds), oldest first; `taxAmount` is the tax inside `amount` (decision 116). */
  refunds: z.array(
    z.object({ amount: z.number().int(), taxAmount: z.number().int(), reason: z.string(), at: z.string() }),
  ),
  /** The sum of `refunds`. */
  refundedTotal: z.number().int(),
  /** The store's steps the shopper may read besides status changes (shipments, refunds, returns), oldest first. */
  events: z.array(z.object({ kind: z.string(), message: z.string(), at: z.string() })),
  /** The order's return requests, oldest first. */
  returns: z.array(returnRequestSchema),
  /** Lines that can still be sent back, with how many; empty unless the order was delivered. */
  returnable: z.array(returnableLineSchema),
});
export type Order = z.infer<typeof orderSchema>;

export const orderSummarySchema = orderSchema.pick({
  orderId: true,
  status: true,
  statusLabel: true,
  placedAt: true,
  currency: true,
  total: true,
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

export const orderHistoryQuerySchema = z.strictObject({
  page: textInt('page', { min: 1, max: 1000 }).default(1),
});

/** POST /ecommerce/order/reorder: the lines of one of the shopper's orders, into their cart again. */
export const reorderRequestSchema = z.strictObject({
  orderId: z.string().trim().min(1, 'orderId is required').max(64),
});
export const reorderResultSchema = z.object({
  /** Lines put in the cart. */
  added: z.number().int(),
  /** Lines that could not be, and why, in words for the shopper. */
  skipped: z.array(z.object({ productName: z.string(), reason: z.string() })),
  shoppingCartSize: z.number().int(),
});
export type ReorderResult = z.infer<typeof reorderResultSchema>;

export const orderStatusQuerySchema = z.strictObject({
  orderId: z.string().trim().min(1, 'orderId is required').max(64),
  /** The signed link's key, for guests. */
  key: z.string().max(200).optional(),
});
