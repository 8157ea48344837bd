import { carrierRequest, isObject, rateWithToken, tokenAnswerOf } from './carrier-http';
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

/**
 * FedEx through its REST APIs (developer.fedex.com): an OAuth token (POST /oauth/token, a form with
 * grant_type=client_credentials, client_id and client_secret; `expires_in` in seconds), then Rate
 * Quotes (POST /rate/v1/rates/quotes) without a serviceType, which answers every service in
 * output.rateReplyDetails[] with its ratedShipmentDetails[].totalNetCharge.
 */
export function createFedexClient(creds: CarrierCredentials, opts: ClientOptions): RateProvider {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const fetchFn = opts.fetch ?? fetch;
  // Read at each call: checkout may shorten it while clients (and their tokens) are kept.
  const timeout = () => opts.timeoutMs ?? 2_500;

  async function fetchToken(): Promise<TokenAnswer> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: creds.clientId,
      client_secret: creds.clientSecret,
    });
    const answer = await carrierRequest(
      fetchFn,
      `${base}/oauth/token`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: form.toString(),
      },
      timeout(),
    );
    return tokenAnswerOf(answer);
  }

  const tokens = createTokenCache(fetchToken, opts.now);

  const address = (a: Address) => ({
    ...(a.addressLine ? { streetLines: [a.addressLine] } : {}),
    ...(a.city ? { city: a.city } : {}),
    ...(a.stateCode ? { stateOrProvinceCode: a.stateCode } : {}),
    ...(a.postalCode ? { postalCode: a.postalCode } : {}),
    countryCode: a.countryCode,
  });

  function servicesOf(body: unknown): QuotedService[] | null {
    if (!isObject(body) || !isObject(body.output) || !Array.isArray(body.output.rateReplyDetails)) return null;
    const out: QuotedService[] = [];
    for (const r of body.output.rateReplyDetails) {
      if (!isObject(r) || typeof r.serviceType !== 'string' || !Array.isArray(r.ratedShipmentDetails)) continue;
      // The account's own rate when FedEx gives one, else the first (list) rate.
      const details = r.ratedShipmentDetails.filter(isObject);
      const d = details.find((x) => x.rateType === 'ACCOUNT') ?? details[0];
      const amount = d ? decimalToMinor(d.totalNetCharge) : null;
      if (!d || amount === null || typeof d.currency !== 'string') continue;
      out.push({ code: r.serviceType, amount, currency: d.currency });
    }
    return out;
  }

  return {
    carrier: 'fedex',
    async authenticate() {
      const t = await tokens.get();
      return t.ok ? 'ok' : t.outcome;
    },
    rate: (origin: Address, parcel: Parcel, destination: Address): Promise<RateOutcome> =>
      rateWithToken(
        tokens,
        (token) =>
          carrierRequest(
            fetchFn,
            `${base}/rate/v1/rates/quotes`,
            {
              method: 'POST',
              headers: {
                Authorization: `Bearer ${token}`,
                'Content-Type': 'application/json',
                'X-locale': 'en_US',
              },
              body: JSON.stringify({
                accountNumber: { value: creds.accountNumber },
                requestedShipment: {
                  shipper: { address: address(origin) },
                  recipient: { address: address(destination) },
                  pickupType: 'DROPOFF_AT_FEDEX_LOCATION',
                  rateRequestType: ['ACCOUNT', 'LIST'],
                  requestedPackageLineItems: [
                    {
                      weight: { units: 'LB', value: Number(poundsOf(parcel.weightGrams)) },
                      dimensions: {
                        length: parcel.lengthIn,
                        width: parcel.widthIn,
                        height: parcel.heightIn,
                        units: 'IN',
                      },
                    },
                  ],
                },
              }),
            },
            timeout(),
          ),
        servicesOf,
        'no rateReplyDetails',
      ),
  };
}
