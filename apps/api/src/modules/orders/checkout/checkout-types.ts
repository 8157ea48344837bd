import type { PlaceOrder, Quote } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type RequestContext, signedInUser } from '../../../lib/context';
import type { Emitter } from '../../../lib/events/index';
import type { AddressesService } from '../../addresses/index';
import type { LiveRates } from '../../carriers/index';
import { type CartOwner, type CartService, cartOwnerOf } from '../../cart/index';
import type { MailQueue } from '../../mail/index';
import type { CardsService, PaymentAccounts, StripeService } from '../../payments/index';
import type { ShippingService } from '../../shipping/index';
import type { OrdersService } from '../orders.service';
import type { CheckoutTables } from './checkout-tables';

export interface CheckoutDeps {
  cart: CartService;
  orders: OrdersService;
  cards: CardsService;
  mailer: MailQueue;
  log: FastifyBaseLogger;
  /**
   * Whose PayPal account each store takes PayPal into (decision 049): a store without one (not
   * connected, no own app, or switched off) offers cards only.
   */
  paymentAccounts: Pick<PaymentAccounts, 'forStore' | 'forOrder'>;
  /** Keeps the address a signed-in shopper asked to save once their PayPal order is placed. */
  addresses?: Pick<AddressesService, 'create'>;
  /** scheme://host[:port] for links in mail, from the store's canonical host. */
  linkOrigin: (canonicalHost: string) => string;
  /** Told of stock an order took or gave back, once committed (`stock.changed`). */
  events: Emitter;
  /** The stores' shipping methods and tax rates, kept in memory (decision 070). */
  tables: CheckoutTables;
  /** The owner's shipping zones: what each address may choose and pay (decision 115). */
  shipping: Pick<ShippingService, 'ratesFor'>;
  /** Live carrier rates listed after the table rates (modules/carriers, decision 117); none when not booted. */
  liveRates?: () => Pick<LiveRates, 'ratesFor'> | undefined;
  /** Stores' own Stripe accounts (decision 118), when the stripe module is booted. */
  stripe?: () => StripeService | undefined;
}

/** Who is buying: an account (its email) or a guest (the email typed at checkout). */
export interface Buyer {
  owner: CartOwner;
  userId: string | null;
  accountEmail: string | null;
}

/** The buyer of a request: its signed-in account (whose login is its email), else the guest's cart. */
export function buyerOf(ctx: RequestContext): Buyer {
  const user = signedInUser(ctx);
  return { owner: cartOwnerOf(ctx), userId: user?.userId ?? null, accountEmail: user?.userLoginId ?? null };
}

/** What an order is asked for with, whatever pays for it. */
export type OrderRequest = Omit<PlaceOrder, 'payment'> & {
  payment: PlaceOrder['payment'] | { method: 'paypal'; paypalOrderId: string } | { method: 'stripe' };
};

/** What a payment is for: an order's total in its currency. */
export type Amount = Pick<Quote, 'total' | 'currency'>;
