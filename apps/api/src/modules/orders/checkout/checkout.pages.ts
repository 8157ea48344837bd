import {
  ADDRESS_FIELDS,
  type CheckoutField,
  type CheckoutPages,
  destinationQuerySchema,
  type PlaceOrder,
  type PlaceOrderOutcome,
  payPalCaptureSchema,
  payPalCheckoutSchema,
  placeOrderSchema,
} from '@app/contracts';
import { z } from 'zod';
import { signedInUser } from '../../../lib/context';
import { fieldFailure, formFailure, lenient, type PageModule, submitForm } from '../../../lib/page-request';
import { formRefusal } from '../../../lib/result';
import type { AddressesService } from '../../addresses/index';
import { cartOwnerOf } from '../../cart/index';
import { countryChoices } from '../../geo/index';
import type { CardsService } from '../../payments/index';
import type { CheckoutService } from './checkout.service';
import { promoCustomerKey } from './reserve-order';

const PLACE_ORDER_FIELDS: CheckoutField[] = [
  'email',
  ...ADDRESS_FIELDS,
  'shippingMethodId',
  'cardNumber',
  'cvc',
  'expMonth',
  'expYear',
  'nameOnCard',
  'paymentMethodId',
  'shipToContactMechId',
];

/** Digits typed in a form as the number they are; anything else is left for the schema to refuse. */
const digitsAsNumber = (s: string) => (/^\s*\d{1,6}\s*$/.test(s) ? Number(s) : s);

/** The cart's message for a code the store no longer has or has switched off (modules/cart promo.ts). */
const GONE_CODE = 'That promo code is not valid.';

/**
 * Where a refusal at Place order belongs on the page: next to what the shopper must change (issue
 * 30, part 9). The code on the cart and the cart's lines are shown in the order summary; a declined
 * card by the card that was used. Any other refusal stays a message over the form.
 */
async function placeRefusal(
  failure: Extract<PlaceOrderOutcome, { ok: false }>,
  payWith: string,
  codeOnCart: () => Promise<string | null>,
): Promise<PlaceOrderOutcome> {
  const at = (field: CheckoutField, message: string) => ({ ...failure, message, fieldErrors: { [field]: message } });
  switch (failure.code) {
    case 'PROMO_INVALID': {
      const code = await codeOnCart();
      const why = failure.message === GONE_CODE && code ? `${code} is no longer valid.` : failure.message;
      return at('promoCode', `${why} Remove it to place your order.`);
    }
    case 'PAYMENT_DECLINED':
      return at(payWith === 'saved-card' ? 'paymentMethodId' : 'cardNumber', failure.message);
    case 'OUT_OF_STOCK':
      return at('lines', failure.message);
    default:
      return failure;
  }
}

export interface CheckoutPagesDeps {
  checkout: CheckoutService;
  addresses: AddressesService;
  cards: CardsService;
}

export function checkoutPages(deps: CheckoutPagesDeps): PageModule<CheckoutPages> {
  return (page) => {
    const { ctx } = page;
    return {
      async checkout(destination) {
        const me = signedInUser(ctx);
        const { shippingMethodId, email, ...where } = destination;
        const typed = email?.trim().slice(0, 200);
        const customerKey = me
          ? promoCustomerKey(me.userId, me.userLoginId)
          : typed?.includes('@')
            ? promoCustomerKey(null, typed)
            : undefined;
        const saved = me ? await deps.addresses.list(ctx, me.userId) : [];
        // No destination asked for yet: the shopper's default shipping address decides the rates.
        const home = saved.find((a) => a.isDefaultShipping) ?? saved[0];
        const asked =
          where.countryGeoId || !home
            ? where
            : {
                countryGeoId: home.countryGeoId,
                ...(home.stateProvinceGeoId ? { stateProvinceGeoId: home.stateProvinceGeoId } : {}),
                ...(home.postalCode ? { postalCode: home.postalCode } : {}),
              };
        const dest = lenient(destinationQuerySchema, asked as Record<string, string>);
        const [options, savedCards] = await Promise.all([
          deps.checkout.options(ctx, cartOwnerOf(ctx), dest, shippingMethodId?.slice(0, 64), customerKey),
          me ? deps.cards.list(ctx, me.userId) : [],
        ]);
        return {
          ...options,
          countries: countryChoices(),
          signedIn: Boolean(me),
          email: me?.userLoginId ?? null,
          addresses: saved,
          cards: savedCards,
          paypal: await deps.checkout.payPalOffered(ctx.tenantId),
          stripe: await deps.checkout.stripeOffered(ctx.tenantId),
          testCards: await deps.checkout.testCardsOffered(ctx.tenantId),
          destination: {
            countryGeoId: dest.countryGeoId,
            stateProvinceGeoId: dest.stateProvinceGeoId ?? null,
            postalCode: dest.postalCode ?? null,
          },
        };
      },
      async placeOrder(input): Promise<PlaceOrderOutcome> {
        const me = signedInUser(ctx);
        // A saved address chosen: it is used as saved, whatever the (hidden) address fields hold.
        const chosen =
          me && input.shipToContactMechId && input.shipToContactMechId !== 'new' ? input.shipToContactMechId : null;
        const savedAddress = chosen
          ? (await deps.addresses.list(ctx, me?.userId ?? '')).find((a) => a.contactMechId === chosen)
          : undefined;
        if (chosen && !savedAddress) {
          return {
            ok: false,
            status: 400,
            message: 'Please check the fields marked below.',
            fieldErrors: { shipToContactMechId: 'Please choose one of your addresses.' },
          };
        }
        const fromSaved: Record<string, string> = savedAddress
          ? Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, savedAddress[f] ?? '']))
          : {};
        const v = (k: string) => fromSaved[k] ?? input[k] ?? '';
        const stripe = v('paymentMethod') === 'stripe';
        const paypal = v('paymentMethod') === 'paypal' || stripe;
        const payment = paypal
          ? undefined
          : v('paymentMethod') === 'saved-card'
            ? { method: 'saved-card', paymentMethodId: v('paymentMethodId') }
            : {
                method: 'card',
                cardNumber: v('cardNumber'),
                cvc: v('cvc'),
                // A form's text: the API's schema takes numbers, never text it would coerce.
                expMonth: digitsAsNumber(v('expMonth')),
                expYear: digitsAsNumber(v('expYear')),
                nameOnCard: v('nameOnCard'),
              };
        const parsed = (paypal ? payPalCheckoutSchema : placeOrderSchema).safeParse({
          ...(me ? {} : { email: v('email') }),
          shipTo: Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, v(f)])),
          shippingMethodId: v('shippingMethodId'),
          ...(payment ? { payment } : {}),
        });
        if (!parsed.success) {
          // Nested paths (shipTo.city, payment.cvc) are reported by their last part, the form's field name.
          const flat = new z.ZodError(parsed.error.issues.map((i) => ({ ...i, path: [i.path.at(-1) ?? ''] })));
          return fieldFailure(flat, PLACE_ORDER_FIELDS);
        }
        const key = v('idempotencyKey');
        if (key.length < 8 || key.length > 100) {
          return { ok: false, status: 400, message: 'This form has expired. Please try again.', fieldErrors: {} };
        }
        const outcome = await submitForm(PLACE_ORDER_FIELDS, async (): Promise<PlaceOrderOutcome> => {
          page.assertFormFromStore();
          if (stripe) {
            // Off to Stripe's hosted page with the order reserved; Stripe sends the shopper back to
            // /checkout/stripe/return (paid) or /checkout/stripe/cancel.
            const started = await deps.checkout.startStripe(ctx, parsed.data, {
              returnOrigin: ctx.origin,
              requestKey: key,
            });
            if (!started.ok) return formRefusal(started, PLACE_ORDER_FIELDS);
            return { ok: true, approveUrl: started.value.url };
          }
          if (paypal) {
            const started = await deps.checkout.createPayPalOrder(ctx, parsed.data, {
              returnOrigin: ctx.origin,
              requestKey: key,
              // Saved once the order is placed, after PayPal (as for a card, right after paying).
              saveAddress: Boolean(me && !savedAddress && input.saveAddress === 'on'),
            });
            if (!started.ok) return formRefusal(started, PLACE_ORDER_FIELDS);
            return { ok: true, approveUrl: started.value.approveUrl };
          }
          const placed = await deps.checkout.placeOrder(ctx, parsed.data as PlaceOrder, key);
          if (!placed.ok) return formRefusal(placed, PLACE_ORDER_FIELDS);
          const order = placed.value;
          if (me && !savedAddress && input.saveAddress === 'on') {
            // A full address book must not spoil a paid order: the address is then just not kept.
            await deps.addresses.create(ctx, me.userId, parsed.data.shipTo).catch(() => undefined);
          }
          return { ok: true, order };
        });
        if (outcome.ok) return outcome;
        return placeRefusal(outcome, v('paymentMethod'), () => deps.checkout.promoCodeOnCart(ctx, cartOwnerOf(ctx)));
      },
      async capturePayPal(paypalOrderId) {
        const parsed = payPalCaptureSchema.safeParse({ paypalOrderId });
        if (!parsed.success) return { ok: false, status: 400, message: 'This PayPal payment could not be found.' };
        try {
          const captured = await deps.checkout.capturePayPal(ctx, parsed.data.paypalOrderId);
          if (captured.ok) return { ok: true, order: captured.value };
          return { ok: false, status: captured.status, message: captured.message };
        } catch (err) {
          // The guards' refusals (a PayPal order of another shopper: 404) read the same way.
          const failure = formFailure(err, []);
          return { ok: false, status: failure.status, message: failure.message };
        }
      },
    };
  };
}
