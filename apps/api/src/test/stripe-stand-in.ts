import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { page, parseForm, payForm, redirect } from './stripe-stand-in-pages';

/**
 * A local stand-in for Stripe's API v1 (decision 118), for tests and the offline demo: what the app
 * calls, as Stripe documents it. Bearer secret keys, form-encoded bodies, Stripe's error object
 * `{ error: { type, code, message, param } }`, idempotency (the same key and parameters answer the
 * first response again; other parameters are a 400 idempotency_error), Checkout Sessions with a
 * hosted payment page, PaymentIntents, partial refunds that add up, and signed webhook events.
 *
 * Test cards on the hosted page, as Stripe's: 4242 4242 4242 4242 succeeds; 4000 0025 0000 3155
 * needs 3-D Secure (a page with Complete and Fail); 4000 0000 0000 0002 is declined.
 */

export interface StripeStandInAccount {
  secretKey: string;
  /** The endpoint's signing secret (whsec_…) the stand-in signs its events with. */
  webhookSecret: string;
  id?: string;
}

export interface StripeStandInOptions {
  accounts?: StripeStandInAccount[];
  port?: number;
  /**
   * Where events are delivered: the stand-in posts to `/api/stripe/webhook` on the host of the
   * session's success_url (the store's endpoint, as its owner registered it at Stripe), connecting to
   * this host:port instead when set (a test server on loopback). Unset and no success_url: none sent.
   */
  deliverTo?: string;
  /** Send events at all (default true). */
  webhooks?: boolean;
}

export interface StripeStandInRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  body: Record<string, string>;
  status?: number;
}

interface Session {
  id: string;
  object: 'checkout.session';
  account: string;
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  payment_intent: string;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  url: string;
  customer_email: string | null;
}

interface Intent {
  id: string;
  object: 'payment_intent';
  account: string;
  amount: number;
  amount_received: number;
  currency: string;
  status: 'requires_payment_method' | 'requires_action' | 'succeeded' | 'canceled';
  metadata: Record<string, string>;
  refunded: number;
  last_payment_error: { code: string; message: string } | null;
}

/** A fault the next matching requests get: a status with Stripe's api_error, a dropped connection, or a hang. */
export type StripeFault = { path: RegExp; times: number } & ({ status: number } | { drop: true } | { hangMs: number });

export interface SentEvent {
  id: string;
  type: string;
  status: number | null;
}

const CARDS = { success: '4242424242424242', threeDs: '4000002500003155', declined: '4000000000000002' };

/** Stripe-Signature as Stripe sends it: HMAC-SHA256 of "<t>.<body>" under the endpoint's secret (its own code, not the app's). */
function signature(body: string, secret: string, t = Math.floor(Date.now() / 1000)) {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

export async function startStripeStandIn(options: StripeStandInOptions = {}) {
  const accounts = new Map<string, { id: string; webhookSecret: string }>();
  const addAccount = (a: StripeStandInAccount) =>
    accounts.set(a.secretKey, { id: a.id ?? id('acct'), webhookSecret: a.webhookSecret });
  for (const a of options.accounts ?? []) addAccount(a);
  const sessions = new Map<string, Session>();
  const intents = new Map<string, Intent>();
  const idempotent = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  const requests: StripeStandInRequest[] = [];
  const faults: StripeFault[] = [];
  const events: SentEvent[] = [];
  const deliveries: Promise<void>[] = [];
  let webhooksOn = options.webhooks ?? true;

  function sendJson(res: ServerResponse, entry: StripeStandInRequest | null, status: number, body: unknown) {
    if (entry) entry.status = status;
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(body));
  }

  function accountOf(req: IncomingMessage): string {
    const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    if (!m) {
      throw new StripeApiError(
        401,
        'invalid_request_error',
        'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth.',
      );
    }
    if (!accounts.has(m[1]!)) {
      throw new StripeApiError(
        401,
        'invalid_request_error',
        `Invalid API Key provided: ${m[1]!.slice(0, 8)}****`,
        'api_key_invalid',
      );
    }
    return m[1]!;
  }

  const missing = (param: string) =>
    new StripeApiError(400, 'invalid_request_error', `Missing required param: ${param}.`, 'parameter_missing', param);

  function sessionView(s: Session) {
    const { account: _a, ...view } = s;
    return view;
  }

  function intentView(i: Intent) {
    const { account: _a, refunded: _r, ...view } = i;
    return view;
  }

  function createSession(key: string, p: Record<string, string>) {
    if (p.mode !== 'payment') throw missing('mode');
    if (!p.success_url) throw missing('success_url');
    if (!p.cancel_url) throw missing('cancel_url');
    const currency = p['line_items[0][price_data][currency]'];
    const unit = p['line_items[0][price_data][unit_amount]'];
    const quantity = p['line_items[0][quantity]'];
    if (!currency) throw missing('line_items[0][price_data][currency]');
    if (!unit || !/^\d+$/.test(unit) || Number(unit) < 1) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Invalid integer: unit_amount',
        'parameter_invalid_integer',
        'line_items[0][price_data][unit_amount]',
      );
    }
    const metadata: Record<string, string> = {};
    const intentMeta: Record<string, string> = {};
    for (const [k, v] of Object.entries(p)) {
      const m = /^metadata\[(.+)\]$/.exec(k);
      if (m) metadata[m[1]!] = v;
      const im = /^payment_intent_data\[metadata\]\[(.+)\]$/.exec(k);
      if (im) intentMeta[im[1]!] = v;
    }
    const sessionId = `cs_test_${randomBytes(16).toString('hex')}`;
    const intent: Intent = {
      id: id('pi'),
      object: 'payment_intent',
      account: key,
      amount: Number(unit) * Number(quantity ?? '1'),
      amount_received: 0,
      currency: currency.toLowerCase(),
      status: 'requires_payment_method',
      metadata: intentMeta,
      refunded: 0,
      last_payment_error: null,
    };
    intents.set(intent.id, intent);
    const session: Session = {
      id: sessionId,
      object: 'checkout.session',
      account: key,
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      payment_intent: intent.id,
      amount_total: intent.amount,
      currency: intent.currency,
      client_reference_id: p.client_reference_id ?? null,
      metadata,
      success_url: p.success_url,
      cancel_url: p.cancel_url,
      url: `${standIn.url}/pay/${sessionId}`,
      customer_email: p.customer_email ?? null,
    };
    sessions.set(sessionId, session);
    return sessionView(session);
  }

  function refund(key: string, p: Record<string, string>) {
    const piId = p.payment_intent ?? p.charge;
    if (!piId) throw missing('payment_intent');
    const intent = intents.get(piId);
    if (!intent || intent.account !== key) {
      throw new StripeApiError(
        404,
        'invalid_request_error',
        `No such payment_intent: '${piId}'`,
        'resource_missing',
        'payment_intent',
      );
    }
    if (intent.status !== 'succeeded') {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'This PaymentIntent does not have a successful charge to refund.',
        'charge_not_refundable',
      );
    }
    const left = intent.amount_received - intent.refunded;
    if (left === 0) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `Charge for ${piId} has already been refunded.`,
        'charge_already_refunded',
      );
    }
    const amount = p.amount === undefined ? left : Number(p.amount);
    if (!Number.isInteger(amount) || amount < 1) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        'Invalid positive integer',
        'parameter_invalid_integer',
        'amount',
      );
    }
    if (amount > left) {
      throw new StripeApiError(
        400,
        'invalid_request_error',
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
        'amount_too_large',
        'amount',
      );
    }
    intent.refunded += amount;
    return {
      id: id('re'),
      object: 'refund',
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      status: 'succeeded',
    };
  }

  /** Posts a signed event to the store's endpoint; what it answered is kept in `events`. */
  function deliver(session: Session, type: string, object: unknown) {
    const account = accounts.get(session.account);
    if (!webhooksOn || !account) return;
    const event = {
      id: id('evt'),
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object },
    };
    const body = JSON.stringify(event);
    const target = new URL('/api/stripe/webhook', session.success_url);
    const [host, port] = (options.deliverTo ?? target.host).split(':');
    const sent: SentEvent = { id: event.id, type, status: null };
    events.push(sent);
    deliveries.push(
      new Promise<void>((resolve) => {
        const req = httpRequest(
          {
            host,
            port: port ? Number(port) : target.protocol === 'https:' ? 443 : 80,
            method: 'POST',
            path: target.pathname,
            headers: {
              host: target.host,
              'content-type': 'application/json',
              'stripe-signature': signature(body, account.webhookSecret),
            },
            timeout: 10_000,
          },
          (res) => {
            sent.status = res.statusCode ?? null;
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', () => resolve());
        req.on('timeout', () => req.destroy());
        req.end(body);
      }),
    );
  }

  function succeed(session: Session) {
    const intent = intents.get(session.payment_intent)!;
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.last_payment_error = null;
    session.status = 'complete';
    session.payment_status = 'paid';
    deliver(session, 'checkout.session.completed', sessionView(session));
  }

  const successUrl = (s: Session) => s.success_url.replace('{CHECKOUT_SESSION_ID}', s.id);

  function payPage(res: ServerResponse, s: Session, error?: string) {
    const amount = `${(s.amount_total / 100).toFixed(2)} ${s.currency.toUpperCase()}`;
    page(
      res,
      200,
      'Pay with card',
      payForm({ sessionId: s.id, amount, cancelUrl: s.cancel_url.replace('{CHECKOUT_SESSION_ID}', s.id), error }),
    );
  }

  async function hosted(req: IncomingMessage, res: ServerResponse, path: string, raw: string) {
    const m = /^\/(pay|3ds)\/(cs_test_[0-9a-f]+)$/.exec(path);
    const s = m ? sessions.get(m[2]!) : undefined;
    if (!m || !s) return page(res, 404, 'Not found', '<h1>This payment page does not exist.</h1>');
    if (s.status === 'complete') return redirect(res, successUrl(s));
    if (s.status === 'expired') {
      return page(
        res,
        410,
        'Session expired',
        '<h1>This checkout session has expired.</h1><p>Nothing was charged.</p>',
      );
    }
    const intent = intents.get(s.payment_intent)!;
    if (m[1] === 'pay') {
      if (req.method === 'GET') return payPage(res, s);
      const card = (parseForm(raw).card ?? '').replace(/\D/g, '');
      if (card === CARDS.declined) {
        intent.last_payment_error = { code: 'card_declined', message: 'Your card was declined.' };
        return payPage(res, s, 'Your card was declined.');
      }
      if (card === CARDS.threeDs) {
        intent.status = 'requires_action';
        return redirect(res, `/3ds/${s.id}`);
      }
      if (card === CARDS.success) {
        succeed(s);
        return redirect(res, successUrl(s));
      }
      return payPage(res, s, 'Your card number is invalid.');
    }
    if (intent.status !== 'requires_action') return redirect(res, `/pay/${s.id}`);
    if (req.method === 'GET') {
      return page(
        res,
        200,
        '3D Secure authentication',
        '<h1>3D Secure 2 test page</h1><p>Your bank asks you to confirm this payment.</p>' +
          `<form method="post" action="/3ds/${s.id}"><button type="submit" name="action" value="complete">Complete</button> ` +
          '<button type="submit" class="alt" name="action" value="fail">Fail</button></form>',
      );
    }
    if (parseForm(raw).action === 'complete') {
      succeed(s);
      return redirect(res, successUrl(s));
    }
    intent.status = 'requires_payment_method';
    intent.last_payment_error = {
      code: 'payment_intent_authentication_failure',
      message:
        'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
    };
    return payPage(res, s, intent.last_payment_error.message);
  }

  /** The account's session the path names, or Stripe's 404 for a session it does not have. */
  function sessionOf(key: string, id: string): Session {
    const s = sessions.get(decodeURIComponent(id));
    if (!s || s.account !== key) {
      throw new StripeApiError(
        404,
        'invalid_request_error',
        `No such checkout.session: '${id}'`,
        'resource_missing',
        'session',
      );
    }
    return s;
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string, raw: string) {
    const body = req.method === 'POST' ? parseForm(raw) : {};
    const entry: StripeStandInRequest = {
      method: req.method ?? 'GET',
      path,
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      body,
    };
    requests.push(entry);
    const fault = faults.find((f) => f.times > 0 && f.path.test(path));
    if (fault) {
      fault.times--;
      if ('drop' in fault) return req.socket.destroy();
      if ('hangMs' in fault) await new Promise((r) => setTimeout(r, fault.hangMs));
      else {
        return sendJson(res, entry, fault.status, {
          error: { type: 'api_error', message: 'An unknown error occurred (stand-in fault).' },
        });
      }
    }
    try {
      const key = accountOf(req);
      // Idempotency: the first answer again for the same key and parameters; others are refused.
      const idemKey = entry.idempotencyKey;
      const scope = idemKey ? `${key}\u0000${idemKey}` : null;
      const fingerprint = createHash('sha256').update(`${req.method} ${path} ${raw}`).digest('hex');
      if (req.method === 'POST' && scope) {
        const seen = idempotent.get(scope);
        if (seen && seen.fingerprint !== fingerprint) {
          throw new StripeApiError(
            400,
            'idempotency_error',
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idemKey}' if you meant to execute a different request.`,
          );
        }
        if (seen) {
          res.setHeader('idempotent-replayed', 'true');
          return sendJson(res, entry, seen.status, seen.body);
        }
      }
      let status = 200;
      let answer: unknown;
      try {
        const sm = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
        const em = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
        const pm = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
        if (req.method === 'GET' && (path === '/v1/account' || path === '/v1/balance')) {
          answer =
            path === '/v1/account'
              ? {
                  id: accounts.get(key)!.id,
                  object: 'account',
                  livemode: key.startsWith('sk_live_'),
                  charges_enabled: true,
                }
              : { object: 'balance', available: [], pending: [], livemode: key.startsWith('sk_live_') };
        } else if (req.method === 'POST' && path === '/v1/checkout/sessions') {
          answer = createSession(key, body);
        } else if (req.method === 'GET' && sm) {
          answer = sessionView(sessionOf(key, sm[1]!));
        } else if (req.method === 'POST' && em) {
          // Stripe expires an open session only; its hosted page then refuses to take payment.
          const s = sessionOf(key, em[1]!);
          if (s.status !== 'open') {
            throw new StripeApiError(
              400,
              'invalid_request_error',
              `Only Checkout Sessions with a status in ["open"] can be expired.`,
            );
          }
          s.status = 'expired';
          answer = sessionView(s);
        } else if (req.method === 'GET' && pm) {
          const i = intents.get(decodeURIComponent(pm[1]!));
          if (!i || i.account !== key) {
            throw new StripeApiError(
              404,
              'invalid_request_error',
              `No such payment_intent: '${pm[1]}'`,
              'resource_missing',
              'intent',
            );
          }
          answer = intentView(i);
        } else if (req.method === 'POST' && path === '/v1/refunds') {
          answer = refund(key, body);
        } else {
          throw new StripeApiError(404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${path}).`);
        }
      } catch (err) {
        if (!(err instanceof StripeApiError) || err.status === 401) throw err;
        status = err.status;
        answer = {
          error: {
            type: err.type,
            message: err.message,
            ...(err.code ? { code: err.code } : {}),
            ...(err.param ? { param: err.param } : {}),
          },
        };
      }
      // Saved once the endpoint ran, errors included, as Stripe does.
      if (req.method === 'POST' && scope) idempotent.set(scope, { fingerprint, status, body: answer });
      return sendJson(res, entry, status, answer);
    } catch (err) {
      if (err instanceof StripeApiError) {
        return sendJson(res, entry, err.status, {
          error: { type: err.type, message: err.message, ...(err.code ? { code: err.code } : {}) },
        });
      }
      return sendJson(res, entry, 500, { error: { type: 'api_error', message: 'An unknown error occurred.' } });
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
      const run = path.startsWith('/v1/')
        ? api(req, res, path, raw)
        : path === '/'
          ? Promise.resolve(page(res, 200, 'Stripe stand-in', '<h1>Stripe stand-in</h1>'))
          : hosted(req, res, path, raw);
      run.catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const standIn = {
    url: `http://127.0.0.1:${port}`,
    requests,
    events,
    addAccount,
    /** The next `times` requests to a path matching `path` get the fault. */
    fault(f: StripeFault) {
      faults.push(f);
    },
    setWebhooks(on: boolean) {
      webhooksOn = on;
    },
    session: (sessionId: string) => sessions.get(sessionId),
    intent: (intentId: string) => intents.get(intentId),
    /** The shopper paying on the hosted page with a card that needs no authentication. */
    pay(sessionId: string) {
      const s = sessions.get(sessionId);
      if (s && s.status === 'open') succeed(s);
    },
    /** Every event sent so far has had its answer. */
    async settled() {
      await Promise.all(deliveries);
    },
    async close() {
      await Promise.all(deliveries);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return standIn;
}

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;
