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
import { signedInUser } from '../../lib/context';
import { fieldFailure, formFailure, lenient, type PageModule, submitForm } from '../../lib/page-request';
import type { AddressesService } from '../addresses/index';
import { cartOwnerOf } from '../cart/index';
import { countryChoices } from '../geo/index';
import type { CardsService } from '../payments/index';
import type { CheckoutService } from './checkout.service';

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
        const { shippingMethodId, ...where } = destination;
        const saved = me ? await deps.addresses.list(ctx, me.userId) : [];
        // No destination asked for yet: the shopper's default shipping address decides the rates.
        const home = saved.find((a) => a.isDefaultShipping) ?? saved[0];
        const asked =
          where.countryGeoId || !home
            ? where
            : {
                countryGeoId: home.countryGeoId,
                ...(home.stateProvinceGeoId ? { stateProvinceGeoId: home.stateProvinceGeoId } : {}),
              };
        const dest = lenient(destinationQuerySchema, asked as Record<string, string>);
        const [options, savedCards] = await Promise.all([
          deps.checkout.options(ctx, cartOwnerOf(ctx), dest, shippingMethodId?.slice(0, 64)),
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
          destination: { countryGeoId: dest.countryGeoId, stateProvinceGeoId: dest.stateProvinceGeoId ?? null },
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
        const paypal = v('paymentMethod') === 'paypal';
        const payment = paypal
          ? undefined
          : v('paymentMethod') === 'saved-card'
            ? { method: 'saved-card', paymentMethodId: v('paymentMethodId') }
            : {
                method: 'card',
                cardNumber: v('cardNumber'),
                cvc: v('cvc'),
                expMonth: v('expMonth'),
                expYear: v('expYear'),
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
        return submitForm(PLACE_ORDER_FIELDS, async (): Promise<PlaceOrderOutcome> => {
          page.assertFormFromStore();
          if (paypal) {
            const started = await deps.checkout.createPayPalOrder(ctx, parsed.data, {
              returnOrigin: ctx.origin,
              requestKey: key,
              // Saved once the order is placed, after PayPal (as for a card, right after paying).
              saveAddress: Boolean(me && !savedAddress && input.saveAddress === 'on'),
            });
            return { ok: true, approveUrl: started.approveUrl };
          }
          const order = await deps.checkout.placeOrder(ctx, parsed.data as PlaceOrder, key);
          if (me && !savedAddress && input.saveAddress === 'on') {
            // A full address book must not spoil a paid order: the address is then just not kept.
            await deps.addresses.create(ctx, me.userId, parsed.data.shipTo).catch(() => undefined);
          }
          return { ok: true, order };
        });
      },
      async capturePayPal(paypalOrderId) {
        const parsed = payPalCaptureSchema.safeParse({ paypalOrderId });
        if (!parsed.success) return { ok: false, status: 400, message: 'This PayPal payment could not be found.' };
        try {
          return { ok: true, order: await deps.checkout.capturePayPal(ctx, parsed.data.paypalOrderId) };
        } catch (err) {
          const failure = formFailure(err, []);
          return { ok: false, status: failure.status, message: failure.message };
        }
      },
    };
  };
}
