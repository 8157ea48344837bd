import { carrierRequest, type HttpAnswer, isObject, rateWithToken, tokenAnswerOf } from './carrier-http';
import { createTokenCache, type TokenAnswer } from './oauth-token';
import {
  type Address,
  type CarrierCredentials,
  type ClientOptions,
  decimalToMinor,
  type Parcel,
  poundsOf,
  type QuotedService,
  type RateOutcome,
  type RateProvider,
} from './rate-provider';

/** The Rating API's version path segment (developer.ups.com, Rating: `/api/rating/{version}/{requestoption}`). */
const RATING_VERSION = 'v2409';

/**
 * UPS through its REST APIs (developer.ups.com): an OAuth client-credentials token
 * (POST /security/v1/oauth/token, Basic client id and secret, grant_type=client_credentials,
 * `expires_in` in seconds as a string), then the Rating API's Shop request, which answers every
 * service UPS offers from the shipper to the address in one RatedShipment list.
 */
export function createUpsClient(creds: CarrierCredentials, opts: ClientOptions): RateProvider {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const fetchFn = opts.fetch ?? fetch;
  // Read at each call: checkout may shorten it while clients (and their tokens) are kept.
  const timeout = () => opts.timeoutMs ?? 2_500;

  async function fetchToken(): Promise<TokenAnswer> {
    const basic = Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64');
    const answer = await carrierRequest(
      fetchFn,
      `${base}/security/v1/oauth/token`,
      {
        method: 'POST',
        headers: {
          Authorization: `Basic ${basic}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
          // The account the token is for (UPS's x-merchant-id header).
          'x-merchant-id': creds.accountNumber,
        },
        body: 'grant_type=client_credentials',
      },
      timeout(),
    );
    return tokenAnswerOf(answer);
  }

  const tokens = createTokenCache(fetchToken, opts.now);

  function shopRequest(origin: Address, parcel: Parcel, destination: Address) {
    const address = (a: Address) => ({
      ...(a.addressLine ? { AddressLine: [a.addressLine] } : {}),
      ...(a.city ? { City: a.city } : {}),
      ...(a.stateCode ? { StateProvinceCode: a.stateCode } : {}),
      ...(a.postalCode ? { PostalCode: a.postalCode } : {}),
      CountryCode: a.countryCode,
    });
    return {
      RateRequest: {
        Request: { TransactionReference: { CustomerContext: 'checkout' } },
        Shipment: {
          Shipper: { ShipperNumber: creds.accountNumber, Address: address(origin) },
          ShipTo: { Address: address(destination) },
          ShipFrom: { Address: address(origin) },
          PaymentDetails: { ShipmentCharge: [{ Type: '01', BillShipper: { AccountNumber: creds.accountNumber } }] },
          NumOfPieces: '1',
          Package: {
            PackagingType: { Code: '02', Description: 'Package' },
            Dimensions: {
              UnitOfMeasurement: { Code: 'IN' },
              Length: String(parcel.lengthIn),
              Width: String(parcel.widthIn),
              Height: String(parcel.heightIn),
            },
            PackageWeight: { UnitOfMeasurement: { Code: 'LBS' }, Weight: poundsOf(parcel.weightGrams) },
          },
        },
      },
    };
  }

  function servicesOf(body: unknown): QuotedService[] | null {
    if (!isObject(body) || !isObject(body.RateResponse)) return null;
    const rated = body.RateResponse.RatedShipment;
    // One service comes back as an object, several as a list (UPS's JSON mirrors its XML).
    const list = Array.isArray(rated) ? rated : rated === undefined ? [] : [rated];
    const out: QuotedService[] = [];
    for (const r of list) {
      if (!isObject(r) || !isObject(r.Service) || !isObject(r.TotalCharges)) continue;
      const amount = decimalToMinor(r.TotalCharges.MonetaryValue);
      const code = r.Service.Code;
      const currency = r.TotalCharges.CurrencyCode;
      if (amount === null || typeof code !== 'string' || typeof currency !== 'string') continue;
      // Present for the services UPS commits to a day count ("2"); a missing or odd value says nothing.
      const days = isObject(r.GuaranteedDelivery) ? r.GuaranteedDelivery.BusinessDaysInTransit : undefined;
      const transit = typeof days === 'string' && /^\d{1,2}$/.test(days.trim()) ? Number(days) : 0;
      out.push({ code, amount, currency, ...(transit > 0 ? { transitDays: transit } : {}) });
    }
    return out;
  }

  async function shop(token: string, origin: Address, parcel: Parcel, destination: Address): Promise<HttpAnswer> {
    return carrierRequest(
      fetchFn,
      `${base}/api/rating/${RATING_VERSION}/Shop`,
      {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          Accept: 'application/json',
          transId: crypto.randomUUID().replaceAll('-', ''),
          transactionSrc: 'storefront',
        },
        body: JSON.stringify(shopRequest(origin, parcel, destination)),
      },
      timeout(),
    );
  }

  return {
    carrier: 'ups',
    async authenticate() {
      const t = await tokens.get();
      return t.ok ? 'ok' : t.outcome;
    },
    rate: (origin, parcel, destination): Promise<RateOutcome> =>
      rateWithToken(tokens, (token) => shop(token, origin, parcel, destination), servicesOf, 'no RateResponse'),
  };
}
