import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the carriers' APIs (decision 117), one server for both, following their
 * documented paths, fields and errors:
 *
 * - UPS: POST /security/v1/oauth/token (Basic client id:secret, form grant_type=client_credentials;
 *   answers token_type, issued_at, client_id, access_token, expires_in as a string, status), and
 *   POST /api/rating/{version}/Shop (Bearer; RateRequest.Shipment with Shipper, ShipTo, ShipFrom and
 *   Package; answers RateResponse.RatedShipment[] with Service.Code and TotalCharges). Errors are
 *   `{ response: { errors: [{ code, message }] } }`.
 * - FedEx: POST /oauth/token (form grant_type, client_id, client_secret) and POST
 *   /rate/v1/rates/quotes (Bearer; accountNumber, requestedShipment; answers
 *   output.rateReplyDetails[] with serviceType and ratedShipmentDetails[].totalNetCharge). Errors are
 *   `{ transactionId, errors: [{ code, message }] }`.
 *
 * Rates are worked out from the parcel's weight and the destination, so tests can say what a shopper
 * pays. For tests it also has, under /__stand-in/: faults (slow, 500), expiring every token (the
 * next rating answers 401), a token lifetime, and the requests it was sent; and `stop`/`start`, which
 * close its listener (a connection is refused, as when the carrier is down or unreachable) and open it
 * again on the same port.
 */
export interface CarrierStandInAccount {
  clientId: string;
  clientSecret: string;
  accountNumber: string;
}

export type StandInFault = 'none' | 'slow' | 'error';

export interface CarrierStandInRequest {
  carrier: 'ups' | 'fedex';
  kind: 'token' | 'rate';
  status: number;
  /** The rate request's body (no credentials: those travel in headers or the token form). */
  body?: unknown;
}

/** Whole dollars per service: a base and a price per started pound; international ones apart. */
const UPS_DOMESTIC: [code: string, description: string, base: number, perLb: number][] = [
  ['03', 'Ground', 895, 120],
  ['12', '3 Day Select', 1595, 180],
  ['02', '2nd Day Air', 2195, 250],
  ['13', 'Next Day Air Saver', 3495, 300],
  ['01', 'Next Day Air', 4295, 350],
];
/** Business days in transit the stand-in quotes per UPS service (GuaranteedDelivery.BusinessDaysInTransit). */
const UPS_DAYS: Record<string, number> = { '12': 3, '02': 2, '13': 1, '01': 1 };
const UPS_INTERNATIONAL: typeof UPS_DOMESTIC = [
  ['11', 'Standard', 1995, 200],
  ['08', 'Worldwide Expedited', 5495, 400],
  ['65', 'Worldwide Saver', 6995, 500],
];
const FEDEX_DOMESTIC: [code: string, name: string, base: number, perLb: number][] = [
  ['FEDEX_GROUND', 'FedEx Ground®', 925, 115],
  ['FEDEX_EXPRESS_SAVER', 'FedEx Express Saver®', 1795, 190],
  ['FEDEX_2_DAY', 'FedEx 2Day®', 2295, 240],
  ['STANDARD_OVERNIGHT', 'FedEx Standard Overnight®', 3895, 320],
  ['PRIORITY_OVERNIGHT', 'FedEx Priority Overnight®', 4595, 360],
];
const FEDEX_INTERNATIONAL: typeof FEDEX_DOMESTIC = [
  ['INTERNATIONAL_ECONOMY', 'FedEx International Economy®', 5295, 380],
  ['INTERNATIONAL_PRIORITY', 'FedEx International Priority®', 7295, 520],
];

/** A state's zone surcharge: 0, 1 or 2 dollars, the same every time for the same state. */
const zoneOf = (state: string | undefined) =>
  state ? ([...state].reduce((n, ch) => n + ch.charCodeAt(0), 0) % 3) * 100 : 0;

/** What the stand-in charges, in cents, for a service row, a weight in pounds and a destination. */
export function standInCents(base: number, perLb: number, pounds: number, state?: string) {
  return base + perLb * Math.max(1, Math.ceil(pounds)) + zoneOf(state);
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function startCarrierStandIn(
  opts: { port?: number; accounts?: CarrierStandInAccount[]; tokenTtlS?: number } = {},
) {
  const accounts = new Map<string, CarrierStandInAccount>();
  for (const a of opts.accounts ?? []) accounts.set(a.clientId, a);
  const tokens = new Map<string, { account: CarrierStandInAccount; expiresAt: number }>();
  const state = {
    fault: 'none' as StandInFault,
    slowMs: 5_000,
    tokenTtlS: opts.tokenTtlS ?? (null as number | null),
  };
  const requests: CarrierStandInRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const send = (res: ServerResponse, status: number, body: unknown) => {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const upsError = (res: ServerResponse, status: number, code: string, message: string) =>
    send(res, status, { response: { errors: [{ code, message }] } });
  const fedexError = (res: ServerResponse, status: number, code: string, message: string) =>
    send(res, status, { transactionId: randomBytes(8).toString('hex'), errors: [{ code, message }] });

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
      req.on('error', reject);
    });

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  function issue(account: CarrierStandInAccount, defaultTtlS: number) {
    const token = randomBytes(24).toString('base64url');
    const ttl = state.tokenTtlS ?? defaultTtlS;
    tokens.set(token, { account, expiresAt: Date.now() + ttl * 1000 });
    return { token, ttl };
  }

  function bearer(req: IncomingMessage) {
    const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    const known = m ? tokens.get(m[1] ?? '') : undefined;
    return known && known.expiresAt > Date.now() ? known.account : null;
  }

  /** A rating fault the test asked for: slow answers late, error answers 500. True when answered. */
  async function faulted(res: ServerResponse, carrier: 'ups' | 'fedex') {
    if (state.fault === 'slow') await wait(state.slowMs);
    if (state.fault === 'error') {
      if (carrier === 'ups') upsError(res, 500, '9999', 'Service temporarily unavailable.');
      else fedexError(res, 500, 'SERVICE.UNAVAILABLE.ERROR', 'The service is currently unavailable.');
      return true;
    }
    return false;
  }

  async function upsToken(req: IncomingMessage, res: ServerResponse, raw: string) {
    const m = /^Basic (\S+)$/.exec(req.headers.authorization ?? '');
    const [id, secret] = m
      ? Buffer.from(m[1] ?? '', 'base64')
          .toString('utf8')
          .split(':')
      : [];
    const account = id ? accounts.get(id) : undefined;
    if (new URLSearchParams(raw).get('grant_type') !== 'client_credentials') {
      requests.push({ carrier: 'ups', kind: 'token', status: 400 });
      return upsError(res, 400, '10400', 'Invalid/Missing grant_type');
    }
    if (!account || account.clientSecret !== secret) {
      requests.push({ carrier: 'ups', kind: 'token', status: 401 });
      return upsError(res, 401, '10401', 'ClientId is Invalid');
    }
    const { token, ttl } = issue(account, 14_399);
    requests.push({ carrier: 'ups', kind: 'token', status: 200 });
    send(res, 200, {
      token_type: 'Bearer',
      issued_at: String(Date.now()),
      client_id: account.clientId,
      access_token: token,
      expires_in: String(ttl),
      status: 'approved',
    });
  }

  async function upsShop(req: IncomingMessage, res: ServerResponse, raw: string) {
    const account = bearer(req);
    let body: unknown = null;
    try {
      body = JSON.parse(raw);
    } catch {}
    if (!account) {
      requests.push({ carrier: 'ups', kind: 'rate', status: 401, body });
      return upsError(res, 401, '250002', 'Invalid Authentication Information.');
    }
    if (await faulted(res, 'ups')) {
      requests.push({ carrier: 'ups', kind: 'rate', status: 500, body });
      return;
    }
    const shipment = isObject(body) && isObject(body.RateRequest) ? body.RateRequest.Shipment : null;
    const shipper = isObject(shipment) && isObject(shipment.Shipper) ? shipment.Shipper : null;
    const to =
      isObject(shipment) && isObject(shipment.ShipTo) && isObject(shipment.ShipTo.Address)
        ? shipment.ShipTo.Address
        : null;
    const from = shipper && isObject(shipper.Address) ? shipper.Address : null;
    const pkg = isObject(shipment) && isObject(shipment.Package) ? shipment.Package : null;
    const weight = pkg && isObject(pkg.PackageWeight) ? Number(pkg.PackageWeight.Weight) : Number.NaN;
    if (!to || !from || typeof to.CountryCode !== 'string' || !(weight > 0)) {
      requests.push({ carrier: 'ups', kind: 'rate', status: 400, body });
      return upsError(res, 400, '111210', 'The requested service is unavailable between the selected locations.');
    }
    if (shipper?.ShipperNumber !== account.accountNumber) {
      requests.push({ carrier: 'ups', kind: 'rate', status: 400, body });
      return upsError(res, 400, '111057', 'Shipper number is not valid for this user.');
    }
    const domestic = to.CountryCode === from.CountryCode;
    const table = domestic ? UPS_DOMESTIC : UPS_INTERNATIONAL;
    const stateCode = typeof to.StateProvinceCode === 'string' ? to.StateProvinceCode : undefined;
    requests.push({ carrier: 'ups', kind: 'rate', status: 200, body });
    send(res, 200, {
      RateResponse: {
        Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
        RatedShipment: table.map(([code, description, base, perLb]) => ({
          Service: { Code: code, Description: description },
          BillingWeight: { UnitOfMeasurement: { Code: 'LBS' }, Weight: String(Math.max(1, Math.ceil(weight))) },
          TotalCharges: { CurrencyCode: 'USD', MonetaryValue: dollars(standInCents(base, perLb, weight, stateCode)) },
          // As UPS answers: the services it commits to a day count carry it; Ground carries none.
          ...(UPS_DAYS[code] ? { GuaranteedDelivery: { BusinessDaysInTransit: String(UPS_DAYS[code]) } } : {}),
        })),
      },
    });
  }

  async function fedexToken(res: ServerResponse, raw: string) {
    const form = new URLSearchParams(raw);
    const account = accounts.get(form.get('client_id') ?? '');
    if (form.get('grant_type') !== 'client_credentials') {
      requests.push({ carrier: 'fedex', kind: 'token', status: 400 });
      return fedexError(res, 400, 'BAD.REQUEST.ERROR', 'The given grant_type is not supported.');
    }
    if (!account || account.clientSecret !== form.get('client_secret')) {
      requests.push({ carrier: 'fedex', kind: 'token', status: 401 });
      return fedexError(res, 401, 'NOT.AUTHORIZED.ERROR', 'The given client credentials were not valid.');
    }
    const { token, ttl } = issue(account, 3_599);
    requests.push({ carrier: 'fedex', kind: 'token', status: 200 });
    send(res, 200, { access_token: token, token_type: 'bearer', expires_in: ttl, scope: 'CXS' });
  }

  async function fedexQuotes(req: IncomingMessage, res: ServerResponse, raw: string) {
    const account = bearer(req);
    let body: unknown = null;
    try {
      body = JSON.parse(raw);
    } catch {}
    if (!account) {
      requests.push({ carrier: 'fedex', kind: 'rate', status: 401, body });
      return fedexError(res, 401, 'NOT.AUTHORIZED.ERROR', 'The given JWT is invalid or expired.');
    }
    if (await faulted(res, 'fedex')) {
      requests.push({ carrier: 'fedex', kind: 'rate', status: 500, body });
      return;
    }
    const shipment = isObject(body) && isObject(body.requestedShipment) ? body.requestedShipment : null;
    const addr = (k: string) =>
      shipment && isObject(shipment[k]) && isObject((shipment[k] as Record<string, unknown>).address)
        ? ((shipment[k] as Record<string, unknown>).address as Record<string, unknown>)
        : null;
    const to = addr('recipient');
    const from = addr('shipper');
    const items =
      shipment && Array.isArray(shipment.requestedPackageLineItems) ? shipment.requestedPackageLineItems : [];
    const first = isObject(items[0]) && isObject(items[0].weight) ? items[0].weight : null;
    const weight = first ? Number(first.value) : Number.NaN;
    const accountValue = isObject(body) && isObject(body.accountNumber) ? body.accountNumber.value : undefined;
    if (!to || !from || typeof to.countryCode !== 'string' || !(weight > 0)) {
      requests.push({ carrier: 'fedex', kind: 'rate', status: 400, body });
      return fedexError(res, 400, 'INVALID.INPUT.EXCEPTION', 'Invalid field value in the input');
    }
    if (accountValue !== account.accountNumber) {
      requests.push({ carrier: 'fedex', kind: 'rate', status: 400, body });
      return fedexError(res, 400, 'ACCOUNT.NUMBER.MISMATCH', 'The account number does not match these credentials.');
    }
    const table = to.countryCode === from.countryCode ? FEDEX_DOMESTIC : FEDEX_INTERNATIONAL;
    const stateCode = typeof to.stateOrProvinceCode === 'string' ? to.stateOrProvinceCode : undefined;
    requests.push({ carrier: 'fedex', kind: 'rate', status: 200, body });
    send(res, 200, {
      transactionId: randomBytes(8).toString('hex'),
      output: {
        rateReplyDetails: table.map(([code, name, base, perLb]) => {
          const total = standInCents(base, perLb, weight, stateCode) / 100;
          return {
            serviceType: code,
            serviceName: name,
            packagingType: 'YOUR_PACKAGING',
            ratedShipmentDetails: [
              { rateType: 'ACCOUNT', ratedWeightMethod: 'ACTUAL', totalNetCharge: total, currency: 'USD' },
              {
                rateType: 'LIST',
                ratedWeightMethod: 'ACTUAL',
                totalNetCharge: Math.round(total * 115) / 100,
                currency: 'USD',
              },
            ],
          };
        }),
      },
    });
  }

  /** The test controls: not part of either carrier's API. */
  async function control(path: string, res: ServerResponse, raw: string) {
    let body: Record<string, unknown> = {};
    try {
      const parsed = raw ? JSON.parse(raw) : {};
      if (isObject(parsed)) body = parsed;
    } catch {}
    if (path === '/__stand-in/fault') {
      const mode = body.mode;
      if (mode !== 'none' && mode !== 'slow' && mode !== 'error')
        return send(res, 400, { error: 'mode: none, slow or error' });
      state.fault = mode;
      if (typeof body.slowMs === 'number') state.slowMs = body.slowMs;
      return send(res, 200, { fault: state.fault, slowMs: state.slowMs });
    }
    if (path === '/__stand-in/expire-tokens') {
      for (const t of tokens.values()) t.expiresAt = 0;
      return send(res, 200, { expired: tokens.size });
    }
    if (path === '/__stand-in/token-ttl') {
      state.tokenTtlS = typeof body.seconds === 'number' ? body.seconds : null;
      return send(res, 200, { tokenTtlS: state.tokenTtlS });
    }
    if (path === '/__stand-in/accounts' && typeof body.clientId === 'string') {
      accounts.set(body.clientId, body as unknown as CarrierStandInAccount);
      return send(res, 200, { accounts: accounts.size });
    }
    if (path === '/__stand-in/requests') return send(res, 200, { requests });
    if (path === '/__stand-in/reset') {
      requests.length = 0;
      state.fault = 'none';
      return send(res, 200, {});
    }
    return send(res, 404, { error: 'unknown control' });
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    void readBody(req)
      .then(async (raw) => {
        if (req.method === 'GET' && path === '/') return send(res, 200, { standIn: 'carriers' });
        if (path.startsWith('/__stand-in/')) return control(path, res, raw);
        if (req.method !== 'POST') return send(res, 405, { error: 'method not allowed' });
        if (path === '/security/v1/oauth/token') return upsToken(req, res, raw);
        if (/^\/api\/rating\/v\d+\/Shop$/.test(path)) return upsShop(req, res, raw);
        if (path === '/oauth/token') return fedexToken(res, raw);
        if (path === '/rate/v1/rates/quotes') return fedexQuotes(req, res, raw);
        return send(res, 404, { error: 'not found' });
      })
      .catch(() => send(res, 500, { error: 'stand-in failed' }));
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(opts.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const closeListener = async () => {
    if (!server.listening) return;
    for (const t of timers) clearTimeout(t);
    timers.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };

  return {
    url,
    requests,
    addAccount(a: CarrierStandInAccount) {
      accounts.set(a.clientId, a);
    },
    setFault(mode: StandInFault, slowMs?: number) {
      state.fault = mode;
      if (slowMs !== undefined) state.slowMs = slowMs;
    },
    /** Every token issued so far stops working (as when UPS expires or revokes one early). */
    expireTokens() {
      for (const t of tokens.values()) t.expiresAt = 0;
    },
    setTokenTtl(seconds: number | null) {
      state.tokenTtlS = seconds;
    },
    /** Nothing listens on the port any more: every call to either carrier is refused until `start`. */
    stop: closeListener,
    /** Listens again on the same port, with the same accounts and tokens (UPS came back). */
    async start() {
      if (!server.listening) await listen(port);
    },
    get listening() {
      return server.listening;
    },
    close: closeListener,
  };
}
export type CarrierStandIn = Awaited<ReturnType<typeof startCarrierStandIn>>;
