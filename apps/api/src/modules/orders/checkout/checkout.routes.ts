import { randomUUID } from 'node:crypto';
import {
  addressSchema,
  cartSchema,
  checkoutAddressSchema,
  dataEnvelope,
  destinationQuerySchema,
  errorEnvelopeSchema,
  orderSchema,
  payPalCaptureSchema,
  payPalCheckoutSchema,
  payPalCreatedSchema,
  placeOrderSchema,
  quoteSchema,
  reviewRequestSchema,
  savedCardSchema,
  shippingRateSchema,
} from '@app/contracts';
import { z } from 'zod';
import { requireSignedIn } from '../../../lib/access';
import type { App } from '../../../lib/app-types';
import { changeErrors, tenantErrors } from '../../../lib/app-types';
import { AppError } from '../../../lib/errors';
import { sendRefusal } from '../../../plugins/errors';
import type { AddressesService } from '../../addresses/index';
import { cartOwnerOf } from '../../cart/index';
import type { CardsService } from '../../payments/index';
import type { CheckoutService } from './checkout.service';

const BASE = '/skulocity/api/v1';
const errors = changeErrors;
const optionsEnvelope = dataEnvelope(
  z.object({ cart: cartSchema, shippingMethods: z.array(shippingRateSchema), quote: quoteSchema }),
);

interface Deps {
  checkout: CheckoutService;
  addresses: AddressesService;
  cards: CardsService;
}

/** Checkout paths as the existing clients call them. Guests may check out; totals are always the server's. */
export async function checkoutRoutes(app: App, { checkout, addresses, cards }: Deps) {
  app.get(
    `${BASE}/public/ecommerce/checkout/checkoutoptions`,
    {
      schema: {
        tags: ['checkout'],
        summary: 'Checkout options for a destination: the cart, shipping methods with rates, the totals',
        description: 'Defaults to the United States. The totals use the first shipping method.',
        querystring: destinationQuerySchema,
        response: { 200: optionsEnvelope, ...tenantErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { data: await checkout.options(req.ctx, cartOwnerOf(req.ctx), req.query) };
    },
  );

  app.get(
    `${BASE}/ecommerce/checkout/checkoutoptions`,
    {
      config: { signedIn: true },
      schema: {
        tags: ['checkout'],
        summary: "The signed-in shopper's checkout options: the above, plus saved addresses and cards",
        querystring: destinationQuerySchema,
        response: {
          200: dataEnvelope(
            z.object({
              cart: cartSchema,
              shippingMethods: z.array(shippingRateSchema),
              quote: quoteSchema,
              addresses: z.array(addressSchema),
              cards: z.array(savedCardSchema),
            }),
          ),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      const [options, saved, savedCards] = await Promise.all([
        checkout.options(req.ctx, { userId: user.userId, guestToken: null }, req.query),
        addresses.list(req.ctx, user.userId),
        cards.list(req.ctx, user.userId),
      ]);
      reply.header('cache-control', 'private, no-store');
      return { data: { ...options, addresses: saved, cards: savedCards } };
    },
  );

  app.post(
    `${BASE}/ecommerce/checkout/review`,
    {
      schema: {
        tags: ['checkout'],
        summary: 'What the order will cost, before paying',
        description: 'Checks the cart (stock), the address (per country) and that the method ships there.',
        body: reviewRequestSchema,
        response: {
          200: dataEnvelope(z.object({ cart: cartSchema, quote: quoteSchema, shippingMethod: z.string() })),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      const reviewed = await checkout.review(req.ctx, cartOwnerOf(req.ctx), req.body);
      if (!reviewed.ok) return sendRefusal(reply, reviewed);
      return { data: reviewed.value };
    },
  );

  app.post(
    `${BASE}/ecommerce/checkout/processorder`,
    {
      schema: {
        tags: ['checkout'],
        summary: 'Places the order and takes the payment',
        description:
          'Needs an `Idempotency-Key` header (8 to 100 characters): the same key returns the same order; the same ' +
          'key with another cart, address or payment is refused (409). Stock is taken atomically: a line that ' +
          'sold out is refused by name (409 OUT_OF_STOCK) and nothing is charged. A declined card gives 422 ' +
          'PAYMENT_DECLINED and leaves no order. Guests give an email; the answer carries their signed link.',
        headers: z.object({ 'idempotency-key': z.string().min(8).max(100).optional() }).passthrough(),
        body: placeOrderSchema,
        examples: {
          body: {
            email: 'grace@example.com',
            shipTo: {
              toName: 'Grace Hopper',
              address1: '1 Market Street',
              city: 'San Francisco',
              postalCode: '94105',
              countryGeoId: 'USA',
              stateProvinceGeoId: 'US_CA',
            },
            shippingMethodId: 'STANDARD',
            payment: {
              method: 'card',
              cardNumber: '4242424242424242',
              cvc: '123',
              expMonth: 12,
              expYear: 2030,
              nameOnCard: 'G Hopper',
            },
          },
        },
        response: { 200: dataEnvelope(orderSchema), ...errors },
      },
    },
    async (req, reply) => {
      const key = req.headers['idempotency-key'];
      if (typeof key !== 'string' || key.length < 8 || key.length > 100) {
        throw AppError.badRequest('Idempotency-Key: send a unique key of 8 to 100 characters with each new order.');
      }
      const placed = await checkout.placeOrder(req.ctx, req.body, key);
      if (!placed.ok) return sendRefusal(reply, placed);
      return { data: placed.value, message: 'Thank you! Your order has been placed.' };
    },
  );

  app.post(
    `${BASE}/public/ecommerce/createPaypalOrder`,
    {
      schema: {
        tags: ['checkout'],
        summary: 'Starts paying with PayPal: a PayPal order for the checkout total, and where to approve it',
        description:
          'Takes the checkout without the payment. Answers the PayPal order id and the approval URL to send the ' +
          'shopper to; PayPal sends them back to /checkout/paypal/return on this store. Nothing is reserved until ' +
          'the capture. An optional `Idempotency-Key` makes a retry return the same PayPal order. 409 when the ' +
          'store takes no PayPal (not connected to PayPal, no PayPal app of its own, or switched off). For a ' +
          "connected store the PayPal order names the store's PayPal account as the payee.",

        headers: z.object({ 'idempotency-key': z.string().min(8).max(100).optional() }).passthrough(),
        body: payPalCheckoutSchema,
        response: { 200: dataEnvelope(payPalCreatedSchema), ...errors, 502: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const key = req.headers['idempotency-key'];
      const started = await checkout.createPayPalOrder(req.ctx, req.body, {
        returnOrigin: `${req.protocol}://${req.host}`,
        requestKey: typeof key === 'string' ? key : randomUUID(),
      });
      if (!started.ok) return sendRefusal(reply, started);
      return { data: started.value };
    },
  );

  app.post(
    `${BASE}/public/ecommerce/capturePaypalOrder`,
    {
      schema: {
        tags: ['checkout'],
        summary: 'Finishes paying with PayPal: places the order and captures the approved PayPal payment',
        description:
          'The PayPal order must be one this shopper (or this guest cart) started. Stock is taken as for a card, ' +
          "PayPal's amount and currency are checked against the order before and after the capture (409 " +
          'PAYMENT_AMOUNT_CHANGED when the cart changed meanwhile), a refused capture gives 422 PAYMENT_DECLINED and ' +
          'leaves no order. Capturing again returns the same order.',
        body: payPalCaptureSchema,
        response: { 200: dataEnvelope(orderSchema), ...errors, 502: errorEnvelopeSchema },
      },
    },
    async (req, reply) => {
      const captured = await checkout.capturePayPal(req.ctx, req.body.paypalOrderId);
      if (!captured.ok) return sendRefusal(reply, captured);
      return { data: captured.value, message: 'Thank you! Your order has been placed.' };
    },
  );

  app.post(
    `${BASE}/ecommerce/checkout/create/postaladdress/andPurpose`,
    {
      config: { signedIn: true },
      schema: {
        tags: ['checkout'],
        summary: "Saves an address typed at checkout to the shopper's account, for shipping or billing",
        description:
          'As POST /ecommerce/profile/postaladdress (same checks, at most 20 addresses: 409), with the purpose ' +
          'SHIPPING_LOCATION (default) or BILLING_LOCATION; `setDefault` makes it the default for that purpose. ' +
          "The answer is the saved address, to pass as the order's shipTo.",
        body: checkoutAddressSchema,
        response: { 200: dataEnvelope(addressSchema), ...errors },
      },
    },
    async (req, reply) => {
      const user = requireSignedIn(req.ctx);
      const { contactMechPurposeTypeId: purpose, setDefault, ...address } = req.body;
      const saved = await addresses.create(req.ctx, user.userId, {
        ...address,
        ...(setDefault && purpose === 'SHIPPING_LOCATION' ? { isDefaultShipping: true } : {}),
        ...(setDefault && purpose === 'BILLING_LOCATION' ? { isDefaultBilling: true } : {}),
      });
      if (!saved.ok) return sendRefusal(reply, saved);
      return { data: saved.value, message: 'Address saved.' };
    },
  );
}
