import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startPayPalStandIn } from '../../../test/paypal-stand-in';
import { createPayPalClient } from './paypal-client';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  client,
  order,
  paypal,
  rejection,
  sent,
  usePayPalStandIn,
} from './paypal-client-test-setup';

usePayPalStandIn();

describe('PayPal client: access token', () => {
  it('fetches one token with Basic credentials and reuses it for every call', async () => {
    const from = paypal.requests.length;
    const pp = client();
    const a = await pp.createOrder(order(1000, 'USD'));
    await pp.createOrder(order(2000, 'USD'));
    await pp.getOrder(a.id);

    const tokenCalls = sent(from, '/v1/oauth2/token');
    expect(tokenCalls).toHaveLength(1);
    const [call] = tokenCalls;
    expect(call!.method).toBe('POST');
    expect(call!.headers.authorization).toBe(
      `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`,
    );
    expect(call!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(call!.body).toEqual({ grant_type: 'client_credentials' });

    const apiCalls = sent(from, /^\/v2\//);
    expect(apiCalls).toHaveLength(3);
    const bearers = new Set(apiCalls.map((r) => r.headers.authorization));
    expect(bearers.size).toBe(1);
    expect([...bearers][0]).toMatch(/^Bearer A21AA\S+$/);
  });

  it('shares one token request between calls made at the same time', async () => {
    const from = paypal.requests.length;
    const pp = client();
    await Promise.all([
      pp.createOrder(order(100, 'USD')),
      pp.createOrder(order(200, 'USD')),
      pp.createOrder(order(300, 'USD')),
    ]);
    expect(sent(from, '/v1/oauth2/token')).toHaveLength(1);
    expect(sent(from, '/v2/checkout/orders')).toHaveLength(3);
  });

  it('fetches a fresh token before the old one runs out, without waiting for a 401', async () => {
    const shortLived = await startPayPalStandIn({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      tokenTtlSeconds: 1,
    });
    try {
      const pp = createPayPalClient({ baseUrl: shortLived.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
      const created = await pp.createOrder(order(500, 'USD'));
      await new Promise((r) => setTimeout(r, 1_000));
      await pp.getOrder(created.id);
      expect(shortLived.requests.filter((r) => r.path === '/v1/oauth2/token')).toHaveLength(2);
      expect(shortLived.requests.filter((r) => r.status === 401)).toEqual([]);
    } finally {
      await shortLived.close();
    }
  });

  it('drops a token PayPal no longer accepts and retries once with a new one', async () => {
    const pp = client();
    const created = await pp.createOrder(order(750, 'USD'));
    paypal.revokeTokens();
    const from = paypal.requests.length;

    const got = await pp.getOrder(created.id);

    expect(got.id).toBe(created.id);
    expect(sent(from, '/v1/oauth2/token')).toHaveLength(1);
    expect(sent(from, `/v2/checkout/orders/${created.id}`).map((r) => r.status)).toEqual([401, 200]);
  });

  it('gives up after one retry when fresh tokens are refused too, and names no token or secret', async () => {
    // Tokens that expire on issue: every API call is answered 401.
    const broken = await startPayPalStandIn({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, tokenTtlSeconds: 0 });
    try {
      const pp = createPayPalClient({ baseUrl: broken.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
      const err = await rejection(pp.createOrder(order(500, 'USD')));
      expect(err.statusCode).toBe(502);
      expect(broken.requests.filter((r) => r.path === '/v1/oauth2/token')).toHaveLength(2);
      expect(broken.requests.filter((r) => r.path === '/v2/checkout/orders').map((r) => r.status)).toEqual([401, 401]);
      const tokens = broken.requests.flatMap((r) =>
        r.headers.authorization?.startsWith('Bearer ') ? [r.headers.authorization.slice(7)] : [],
      );
      expect(tokens).toHaveLength(2);
      const text = `${err.message} ${JSON.stringify(err.errors)} ${String(err.cause)}`;
      for (const t of tokens) expect(text).not.toContain(t);
      expect(text).not.toContain(CLIENT_SECRET);
    } finally {
      await broken.close();
    }
  });

  it('turns wrong credentials into a 502 AppError that does not repeat the secret', async () => {
    const from = paypal.requests.length;
    const err = await rejection(client({ clientSecret: 'wrong-secret-value' }).createOrder(order(1000, 'USD')));
    expect(err.statusCode).toBe(502);
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.message).toMatch(/PayPal is not available/);
    for (const text of [err.message, ...err.errors, String(err.cause)]) {
      expect(text).not.toContain('wrong-secret-value');
      expect(text).not.toContain(Buffer.from(`${CLIENT_ID}:wrong-secret-value`).toString('base64'));
    }
    // The operator's log learns why (through the cause); the shopper does not.
    expect(String(err.cause)).toContain('invalid_client');
    expect(err.message).not.toContain('invalid_client');
    expect(sent(from, '/v1/oauth2/token').map((r) => r.status)).toEqual([401]);
    expect(sent(from, /^\/v2\//)).toEqual([]);
  });
});

describe('PayPal client: PayPal unavailable', () => {
  it('turns a PayPal 5xx into a 502 AppError that names none of PayPal’s internals', async () => {
    const pp = client();
    await pp.createOrder(order(100, 'USD')); // token in hand, so the failure hits the API call
    paypal.failNextRequest(500);
    const from = paypal.requests.length;
    const err = await rejection(pp.createOrder(order(100, 'USD')));

    expect(err.statusCode).toBe(502);
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.message).not.toMatch(/INTERNAL_SERVER_ERROR|debug|500/);
    const [failed] = sent(from, '/v2/checkout/orders');
    expect(failed!.status).toBe(500);
    // The debug id PayPal support asks for is kept for the log.
    expect(String(err.cause)).toMatch(/HTTP 500, INTERNAL_SERVER_ERROR, debug_id [0-9a-f]{13}/);
  });

  it('turns a refused connection into a 502 AppError', async () => {
    // A port that was free a moment ago: nothing listens there now.
    const spare = createServer();
    await new Promise<void>((r) => spare.listen(0, '127.0.0.1', r));
    const { port } = spare.address() as AddressInfo;
    await new Promise((r) => spare.close(r));

    const err = await rejection(client({ baseUrl: `http://127.0.0.1:${port}` }).createOrder(order(100, 'USD')));
    expect(err.statusCode).toBe(502);
    expect(err.message).toMatch(/PayPal is not available/);
  });
});
