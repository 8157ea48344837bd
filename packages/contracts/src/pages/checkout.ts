import type { Order } from '../checkout';
import type { CheckoutView, PlaceOrderOutcome } from '../storefront';

/** Checkout: the options for a destination, placing the order, PayPal. */
export interface CheckoutPages {
  /** Everything the checkout page shows for a destination (and, signed in, saved addresses and cards). */
  checkout(destination: {
    /** Unset: the signed-in shopper's default shipping address, else the United States. */
    countryGeoId?: string;
    stateProvinceGeoId?: string;
    /** Carriers' live rates are quoted for it (decision 117); one not of the country's form is ignored. */
    postalCode?: string;
    shippingMethodId?: string;
    /** A guest's receipt email as typed: a code they have used up is shown without its discount. */
    email?: string;
  }): Promise<CheckoutView>;
  /**
   * Places the order from the checkout form; `idempotencyKey` comes with the form. With PayPal
   * chosen it starts the PayPal payment and answers where to approve it.
   */
  placeOrder(input: Record<string, string>): Promise<PlaceOrderOutcome>;
  /** When PayPal sends the shopper back approved: places the order and captures the payment. */
  capturePayPal(
    paypalOrderId: string,
  ): Promise<{ ok: true; order: Order } | { ok: false; status: number; message: string }>;
}
