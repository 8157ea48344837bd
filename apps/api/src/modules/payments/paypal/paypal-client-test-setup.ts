import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import { AppError } from '../../../lib/errors';
import { type PayPalStandIn, type StandInRequest, startPayPalStandIn } from '../../../test/paypal-stand-in';
import { createPayPalClient, type PayPalClient } from './paypal-client';

// The client runs against the stand-in over loopback: real HTTP, PayPal's shapes, nothing mocked.
export const CLIENT_ID = 'client-under-test';
export const CLIENT_SECRET = 'secret-that-must-never-leak';
export const RETURN_URL = 'https://lighting.shop.test/checkout/paypal/return?cart=c-1';
export const CANCEL_URL = 'https://lighting.shop.test/checkout/paypal/cancel';

export let paypal: PayPalStandIn;
export const client = (overrides: { baseUrl?: string; clientSecret?: string } = {}): PayPalClient =>
  createPayPalClient({ baseUrl: paypal.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...overrides });

export const order = (amountMinor: number, currency: string, requestId = randomUUID()) => ({
  amountMinor,
  currency,
  referenceId: `order-${randomUUID().slice(0, 8)}`,
  requestId,
  returnUrl: RETURN_URL,
  cancelUrl: CANCEL_URL,
  brandName: 'Lighting Store',
});

/** The requests made from `from` on, to one path. */
export const sent = (from: number, path: string | RegExp, method?: string): StandInRequest[] =>
  paypal.requests
    .slice(from)
    .filter(
      (r) =>
        (typeof path === 'string' ? r.path === path : path.test(r.path)) &&
        (method === undefined || r.method === method),
    );

/** What the buyer's browser does on PayPal: open the payer-action link, come back on a 302. */
export async function approve(approveUrl: string): Promise<URL> {
  const res = await fetch(approveUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

/** Registers the hooks every part of this suite shares: call once at the top of each test file. */
export function usePayPalStandIn(): void {
  beforeAll(async () => {
    paypal = await startPayPalStandIn({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
  });
  afterAll(async () => {
    await paypal.close();
  });
}
