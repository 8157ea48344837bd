import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { html, respond, sendJson } from './paypal-stand-in-http';
import {
  denied,
  escapeHtml,
  invalid,
  isHttpUrl,
  isObject,
  missing,
  notFound,
  PayPalError,
  parseJsonBody,
  paypalId,
  REFERRAL_FEATURES,
  REFERRAL_OPERATIONS,
  REFERRAL_PRODUCTS,
  type StandInApp,
  type StandInReferral,
  THIRD_PARTY_SCOPES,
} from './paypal-stand-in-shared';
import type { StandInState } from './paypal-stand-in-state';
import type { SellerOptions, StandInSeller, WebhookInput } from './paypal-stand-in-types';
import { autoWebhook } from './paypal-stand-in-webhooks';

// The partner side of the PayPal stand-in (paypal-stand-in.ts): partner referrals, the seller's sign-up page,
// sellers, merchant integrations, the seller events (onboarding completed, consent revoked) and the partner
// routes.

export function createReferral(s: StandInState, body: unknown): StandInReferral {
  if (!isObject(body)) throw invalid('/', 'INVALID_PARAMETER_SYNTAX', 'The request body must be a JSON object.');
  const trackingId = body.tracking_id;
  if (trackingId === undefined) throw missing('/tracking_id');
  if (typeof trackingId !== 'string' || trackingId.length < 1 || trackingId.length > 127) {
    throw invalid(
      '/tracking_id',
      'INVALID_STRING_LENGTH',
      'The value of a field is either too short or too long.',
      trackingId,
    );
  }
  if (body.email !== undefined && (typeof body.email !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(body.email))) {
    throw invalid(
      '/email',
      'INVALID_PARAMETER_SYNTAX',
      'The value of a field does not conform to the expected format.',
      body.email,
    );
  }
  const operations = body.operations;
  if (!Array.isArray(operations) || operations.length === 0) throw missing('/operations');
  operations.forEach((op, i) => {
    const field = `/operations/${i}`;
    if (!isObject(op)) throw invalid(field, 'INVALID_PARAMETER_SYNTAX', 'An operation is an object.');
    if (op.operation === undefined) throw missing(`${field}/operation`);
    if (typeof op.operation !== 'string' || !REFERRAL_OPERATIONS.has(op.operation)) {
      throw invalid(`${field}/operation`, 'INVALID_PARAMETER_VALUE', 'The value of a field is invalid.', op.operation);
    }
    if (op.operation !== 'API_INTEGRATION') return;
    const pref = op.api_integration_preference;
    if (!isObject(pref)) throw missing(`${field}/api_integration_preference`);
    const rest = pref.rest_api_integration;
    if (!isObject(rest)) throw missing(`${field}/api_integration_preference/rest_api_integration`);
    const restField = `${field}/api_integration_preference/rest_api_integration`;
    if (rest.integration_method !== 'PAYPAL' && rest.integration_method !== 'BRAINTREE') {
      if (rest.integration_method === undefined) throw missing(`${restField}/integration_method`);
      throw invalid(
        `${restField}/integration_method`,
        'INVALID_PARAMETER_VALUE',
        'The value of a field is invalid.',
        rest.integration_method,
      );
    }
    if (rest.integration_type !== 'FIRST_PARTY' && rest.integration_type !== 'THIRD_PARTY') {
      if (rest.integration_type === undefined) throw missing(`${restField}/integration_type`);
      throw invalid(
        `${restField}/integration_type`,
        'INVALID_PARAMETER_VALUE',
        'The value of a field is invalid.',
        rest.integration_type,
      );
    }
    if (rest.integration_type === 'THIRD_PARTY') {
      const details = rest.third_party_details;
      const features = isObject(details) ? details.features : undefined;
      if (!Array.isArray(features) || features.length === 0) throw missing(`${restField}/third_party_details/features`);
      features.forEach((f, j) => {
        if (typeof f !== 'string' || !REFERRAL_FEATURES.has(f)) {
          throw invalid(
            `${restField}/third_party_details/features/${j}`,
            'INVALID_PARAMETER_VALUE',
            'The value of a field is invalid.',
            f,
          );
        }
      });
    }
  });
  const products = body.products;
  if (!Array.isArray(products) || products.length === 0) throw missing('/products');
  products.forEach((p, i) => {
    if (typeof p !== 'string' || !REFERRAL_PRODUCTS.has(p)) {
      throw invalid(`/products/${i}`, 'INVALID_PARAMETER_VALUE', 'The value of a field is invalid.', p);
    }
  });
  const consents = body.legal_consents;
  if (!Array.isArray(consents) || consents.length === 0) throw missing('/legal_consents');
  consents.forEach((c, i) => {
    if (!isObject(c))
      throw invalid(`/legal_consents/${i}`, 'INVALID_PARAMETER_SYNTAX', 'A legal consent is an object.');
    if (c.type !== 'SHARE_DATA_CONSENT') {
      if (c.type === undefined) throw missing(`/legal_consents/${i}/type`);
      throw invalid(`/legal_consents/${i}/type`, 'INVALID_PARAMETER_VALUE', 'The value of a field is invalid.', c.type);
    }
    if (typeof c.granted !== 'boolean') throw missing(`/legal_consents/${i}/granted`);
  });
  // Third-party API access needs the seller's data shared with the partner.
  if (!consents.some((c) => isObject(c) && c.type === 'SHARE_DATA_CONSENT' && c.granted === true)) {
    throw invalid('/legal_consents', 'INVALID_PARAMETER_VALUE', 'SHARE_DATA_CONSENT must be granted.');
  }
  let returnUrl: string | undefined;
  const override = body.partner_config_override;
  if (override !== undefined) {
    if (!isObject(override))
      throw invalid('/partner_config_override', 'INVALID_PARAMETER_SYNTAX', 'partner_config_override is an object.');
    if (override.return_url !== undefined) {
      if (!isHttpUrl(override.return_url)) {
        throw invalid(
          '/partner_config_override/return_url',
          'INVALID_PARAMETER_SYNTAX',
          'The value of a field does not conform to the expected format.',
          override.return_url,
        );
      }
      returnUrl = override.return_url;
    }
  }
  const referral: StandInReferral = {
    id: randomBytes(36).toString('base64url'),
    token: randomBytes(48).toString('base64url'),
    trackingId,
    data: body,
    ...(returnUrl ? { returnUrl } : {}),
    ...(typeof body.email === 'string' ? { email: body.email } : {}),
  };
  s.referrals.set(referral.id, referral);
  return referral;
}

export const actionUrl = (s: StandInState, r: StandInReferral) =>
  `${s.url}/bizsignup/partner/entry?referralToken=${encodeURIComponent(r.token)}`;
export const referralLinks = (s: StandInState, r: StandInReferral) => [
  { href: `${s.url}/v2/customer/partner-referrals/${r.id}`, rel: 'self', method: 'GET' },
  { href: actionUrl(s, r), rel: 'action_url', method: 'GET' },
];

export function newSeller(s: StandInState, trackingId: string, o: SellerOptions, email?: string): StandInSeller {
  const merchantId = paypalId(13);
  const seller: StandInSeller = {
    merchantId,
    trackingId,
    paymentsReceivable: o.paymentsReceivable ?? true,
    emailConfirmed: o.emailConfirmed ?? true,
    primaryEmail: email ?? `seller-${merchantId.toLowerCase()}@paypal-stand-in.test`,
    legalName: `Stand-in Seller ${merchantId}`,
    consent: o.consent ?? true,
    merchantClientId: randomBytes(30).toString('base64url'),
  };
  s.sellers.set(merchantId, seller);
  return seller;
}

/** The seller's side of a referral: PayPal's sign-up and consent, one page, no JavaScript. */
export function signupPage(s: StandInState, method: string, query: URLSearchParams, raw: string, res: ServerResponse) {
  const tokenValue = query.get('referralToken') ?? new URLSearchParams(raw).get('referralToken') ?? '';
  const referral = [...s.referrals.values()].find((r) => r.token === tokenValue);
  if (!referral) {
    return html(
      s,
      res,
      404,
      'PayPal',
      '<h1>This link is no longer valid</h1><p>Please go back to the store and start again.</p>',
    );
  }
  if (method === 'GET') {
    const cancel = referral.returnUrl ? `<a href="${escapeHtml(referral.returnUrl)}">Cancel</a>` : '';
    return html(
      s,
      res,
      200,
      'Connect your PayPal account',
      '<h1>Connect your PayPal account</h1>' +
        '<p>The platform asks to take payments and make refunds for you, paid into your own PayPal account.</p>' +
        `<p>Store reference: <strong>${escapeHtml(referral.trackingId)}</strong></p>` +
        (referral.email ? `<p>PayPal account: ${escapeHtml(referral.email)}</p>` : '') +
        `<form method="post" action="/bizsignup/partner/entry?referralToken=${encodeURIComponent(referral.token)}">` +
        `<input type="hidden" name="referralToken" value="${escapeHtml(referral.token)}">` +
        `<div class="actions"><button type="submit">Agree and connect</button>${cancel}</div></form>`,
    );
  }
  if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
  const knob = s.nextSellerOpts ?? {};
  s.nextSellerOpts = undefined;
  let seller = [...s.sellers.values()].find((x) => x.trackingId === referral.trackingId);
  if (seller) {
    // The same store signing up again: the same PayPal account, its consent given anew.
    seller.consent = knob.consent ?? true;
    if (knob.paymentsReceivable !== undefined) seller.paymentsReceivable = knob.paymentsReceivable;
    if (knob.emailConfirmed !== undefined) seller.emailConfirmed = knob.emailConfirmed;
  } else {
    seller = newSeller(s, referral.trackingId, knob, referral.email);
  }
  if (seller.consent) autoWebhook(s, onboardingCompletedEvent(s, seller.merchantId));
  if (!referral.returnUrl) {
    return html(
      s,
      res,
      200,
      'PayPal',
      '<h1>You are connected</h1><p>You can close this page and go back to the store.</p>',
    );
  }
  // PayPal's documented return query (merchantId is our tracking id).
  const location = new URL(referral.returnUrl);
  const q = location.searchParams;
  q.set('merchantId', referral.trackingId);
  q.set('merchantIdInPayPal', seller.merchantId);
  q.set('permissionsGranted', String(seller.consent));
  q.set('consentStatus', String(seller.consent));
  q.set('productIntentId', 'addipmt');
  q.set('isEmailConfirmed', String(seller.emailConfirmed));
  q.set('accountStatus', 'BUSINESS_ACCOUNT');
  respond(s, res, 302, { Location: location.href });
}

export const integrationUrl = (s: StandInState, merchantId: string) =>
  `${s.url}/v1/customer/partners/${s.partnerId}/merchant-integrations/${merchantId}`;

export function merchantIntegrationBody(s: StandInState, seller: StandInSeller) {
  const capabilities = [
    { name: 'PAYPAL_CHECKOUT', status: seller.paymentsReceivable ? 'ACTIVE' : 'SUSPENDED' },
    { name: 'WITHDRAW_MONEY', status: seller.paymentsReceivable ? 'ACTIVE' : 'SUSPENDED' },
  ];
  return {
    merchant_id: seller.merchantId,
    tracking_id: seller.trackingId,
    products: [
      {
        name: 'EXPRESS_CHECKOUT',
        vetting_status: 'SUBSCRIBED',
        capabilities: capabilities.map((c) => c.name),
      },
    ],
    capabilities,
    payments_receivable: seller.paymentsReceivable,
    legal_name: seller.legalName,
    primary_email: seller.primaryEmail,
    primary_email_confirmed: seller.emailConfirmed,
    oauth_integrations: seller.consent
      ? [
          {
            integration_type: 'OAUTH_THIRD_PARTY',
            integration_method: 'PAYPAL',
            oauth_third_party: [
              {
                partner_client_id: s.platformApp.clientId,
                merchant_client_id: seller.merchantClientId,
                scopes: THIRD_PARTY_SCOPES,
              },
            ],
          },
        ]
      : [],
    links: [{ href: integrationUrl(s, seller.merchantId), rel: 'self', method: 'GET' }],
  };
}

export function knownSeller(s: StandInState, merchantId: string): StandInSeller {
  const seller = s.sellers.get(merchantId);
  if (!seller) throw new Error(`The stand-in has no seller ${merchantId}.`);
  return seller;
}

export function onboardingCompletedEvent(s: StandInState, merchantId: string): WebhookInput {
  const seller = knownSeller(s, merchantId);
  return {
    event_type: 'MERCHANT.ONBOARDING.COMPLETED',
    resource_type: 'merchant-onboarding',
    summary: 'The merchant account setup is completed',
    resource: {
      partner_client_id: s.platformApp.clientId,
      merchant_id: seller.merchantId,
      tracking_id: seller.trackingId,
      links: [
        {
          href: integrationUrl(s, seller.merchantId),
          rel: 'self',
          method: 'GET',
          description: 'Get the merchant status information of merchants onboarded by this partner',
        },
      ],
    },
  };
}

export function consentRevokedEvent(s: StandInState, merchantId: string): WebhookInput {
  const seller = knownSeller(s, merchantId);
  return {
    event_type: 'MERCHANT.PARTNER-CONSENT.REVOKED',
    resource_type: 'partner-consent',
    summary: 'The Account setup consents has been revoked or the merchant account is closed',
    resource: {
      merchant_id: seller.merchantId,
      tracking_id: seller.trackingId,
      links: [{ href: integrationUrl(s, seller.merchantId), rel: 'self', method: 'GET' }],
    },
  };
}

/** The partner routes; undefined when the path is none of them. */
export function partnerRoute(
  s: StandInState,
  method: string,
  path: string,
  parsed: URL,
  req: IncomingMessage,
  raw: string,
  res: ServerResponse,
  app: StandInApp,
): true | undefined {
  const requestId = req.headers['paypal-request-id'] as string | undefined;
  if (path === '/v2/customer/partner-referrals') {
    if (method !== 'POST') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
    if (!app.platform) throw denied();
    const known = requestId ? s.referrals.get(s.referralKeys.get(requestId) ?? '') : undefined;
    if (known) {
      sendJson(s, res, 200, { links: referralLinks(s, known) });
      return true;
    }
    const made = createReferral(s, parseJsonBody(req, raw, true));
    if (requestId) s.referralKeys.set(requestId, made.id);
    sendJson(s, res, 201, { links: referralLinks(s, made) });
    return true;
  }
  const referralPath = /^\/v2\/customer\/partner-referrals\/([^/]+)$/.exec(path);
  if (referralPath) {
    if (method !== 'GET') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
    if (!app.platform) throw denied();
    const r = s.referrals.get(decodeURIComponent(referralPath[1]!));
    if (!r) throw notFound();
    sendJson(s, res, 200, {
      partner_referral_id: r.id,
      submitter_payer_id: s.partnerId,
      referral_data: r.data,
      links: referralLinks(s, r),
    });
    return true;
  }
  const integrations = /^\/v1\/customer\/partners\/([^/]+)\/merchant-integrations(?:\/([^/]+))?$/.exec(path);
  if (integrations) {
    if (method !== 'GET') throw new PayPalError(405, 'METHOD_NOT_SUPPORTED');
    if (!app.platform) throw denied();
    if (decodeURIComponent(integrations[1]!) !== s.partnerId) throw notFound();
    if (integrations[2] !== undefined) {
      const seller = s.sellers.get(decodeURIComponent(integrations[2]));
      if (!seller) throw notFound();
      sendJson(s, res, 200, merchantIntegrationBody(s, seller));
      return true;
    }
    const trackingId = parsed.searchParams.get('tracking_id');
    if (!trackingId) {
      throw new PayPalError(400, 'INVALID_REQUEST', [
        {
          field: 'tracking_id',
          location: 'query',
          issue: 'MISSING_REQUIRED_PARAMETER',
          description: 'A required field / parameter is missing.',
        },
      ]);
    }
    const seller = [...s.sellers.values()].find((x) => x.trackingId === trackingId);
    if (!seller) throw notFound('query');
    sendJson(s, res, 200, {
      merchant_id: seller.merchantId,
      tracking_id: seller.trackingId,
      links: [
        {
          href: integrationUrl(s, seller.merchantId),
          rel: 'read',
          method: 'GET',
          description: 'Main partner-merchant integration details',
        },
      ],
    });
    return true;
  }
  return undefined;
}
