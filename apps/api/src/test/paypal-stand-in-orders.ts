import {
  denied,
  invalid,
  isHttpUrl,
  isObject,
  PAYPAL_CURRENCY_DIGITS,
  PayPalError,
  paypalId,
  type StandInApp,
  unprocessable,
} from './paypal-stand-in-shared';
import type { StandInState } from './paypal-stand-in-state';
import type { StandInAmount, StandInCapture, StandInOrder, StandInSeller, WebhookInput } from './paypal-stand-in-types';
import { autoWebhook, money } from './paypal-stand-in-webhooks';

// Orders in the PayPal stand-in (paypal-stand-in.ts), PayPal's Orders v2 API: the amount and payee checks,
// create, find, capture, the bodies they answer with and the capture's event (PAYMENT.CAPTURE.COMPLETED or
// DENIED).

export function validateAmount(amount: unknown, unitField: string): StandInAmount {
  if (!isObject(amount)) {
    throw invalid(`${unitField}/amount`, 'MISSING_REQUIRED_PARAMETER', 'A required field / parameter is missing.');
  }
  const { currency_code: currency, value } = amount;
  if (currency === undefined) {
    throw invalid(
      `${unitField}/amount/currency_code`,
      'MISSING_REQUIRED_PARAMETER',
      'A required field / parameter is missing.',
    );
  }
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) {
    throw invalid(
      `${unitField}/amount/currency_code`,
      'INVALID_PARAMETER_SYNTAX',
      'The value of a field does not conform to the expected format.',
      currency,
    );
  }
  const digits = PAYPAL_CURRENCY_DIGITS[currency];
  if (digits === undefined) {
    throw unprocessable(
      'CURRENCY_NOT_SUPPORTED',
      'Currency code is not currently supported. Please refer https://developer.paypal.com/docs/api/reference/currency-codes/ for list of supported currency codes.',
      `${unitField}/amount/currency_code`,
      currency,
    );
  }
  if (value === undefined) {
    throw invalid(
      `${unitField}/amount/value`,
      'MISSING_REQUIRED_PARAMETER',
      'A required field / parameter is missing.',
    );
  }
  // PayPal's amount value is a string: a number in JSON is a schema violation.
  if (typeof value !== 'string' || value.length > 32 || !/^(-?[0-9]+|-?[0-9]*\.[0-9]+)$/.test(value)) {
    throw invalid(
      `${unitField}/amount/value`,
      'INVALID_PARAMETER_SYNTAX',
      'The value of a field does not conform to the expected format.',
      value,
    );
  }
  const fraction = value.split('.')[1] ?? '';
  if (fraction.length > 0 && digits === 0) {
    throw unprocessable(
      'DECIMALS_NOT_SUPPORTED',
      'Currency does not support decimals. Please refer to https://developer.paypal.com/docs/api/reference/currency-codes/ for more information.',
      `${unitField}/amount/value`,
      value,
    );
  }
  if (fraction.length > digits) {
    throw unprocessable(
      'DECIMAL_PRECISION',
      'If the currency supports decimals, only two decimal place precision is supported.',
      `${unitField}/amount/value`,
      value,
    );
  }
  if (!(Number(value) > 0)) {
    throw unprocessable(
      'CANNOT_BE_ZERO_OR_NEGATIVE',
      'Must be greater than zero. If the currency supports decimals, only two decimal place precision is supported.',
      `${unitField}/amount/value`,
      value,
    );
  }
  return { currency_code: currency, value };
}

export function createOrder(s: StandInState, body: unknown, app: StandInApp): StandInOrder {
  if (!isObject(body)) throw invalid('/', 'INVALID_PARAMETER_SYNTAX', 'The request body must be a JSON object.');
  if (body.intent === undefined) {
    throw invalid('/intent', 'MISSING_REQUIRED_PARAMETER', 'A required field / parameter is missing.');
  }
  if (body.intent !== 'CAPTURE' && body.intent !== 'AUTHORIZE') {
    throw invalid('/intent', 'INVALID_PARAMETER_VALUE', 'The value of a field is invalid.', body.intent);
  }
  const units = body.purchase_units;
  if (!Array.isArray(units) || units.length === 0) {
    throw invalid('/purchase_units', 'MISSING_REQUIRED_PARAMETER', 'A required field / parameter is missing.');
  }
  if (units.length > 1) {
    throw invalid('/purchase_units', 'INVALID_ARRAY_MAX_ITEMS', 'The stand-in models one purchase unit per order.');
  }
  const unit = units[0];
  if (!isObject(unit)) throw invalid('/purchase_units/0', 'INVALID_PARAMETER_SYNTAX', 'A purchase unit is an object.');
  const referenceId = unit.reference_id ?? 'default';
  if (typeof referenceId !== 'string' || referenceId.length < 1 || referenceId.length > 256) {
    throw invalid(
      '/purchase_units/0/reference_id',
      'INVALID_STRING_LENGTH',
      'The value of a field is either too short or too long.',
      referenceId,
    );
  }
  const unitField = `/purchase_units/@reference_id=='${referenceId}'`;
  const amount = validateAmount(unit.amount, unitField);
  const texts: Record<string, string> = {};
  for (const key of ['custom_id', 'invoice_id'] as const) {
    const v = unit[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v.length < 1 || v.length > 127) {
      throw invalid(
        `${unitField}/${key}`,
        'INVALID_STRING_LENGTH',
        'The value of a field is either too short or too long.',
        v,
      );
    }
    texts[key] = v;
  }
  const payeeMerchantId = checkPayee(s, unit.payee, unitField, app);

  // The current way (payment_source.paypal.experience_context) or the deprecated application_context.
  let context: Record<string, unknown> = {};
  let contextField = '/application_context';
  let approvalRel: StandInOrder['approvalRel'] = 'approve';
  const source = body.payment_source;
  if (source !== undefined) {
    if (!isObject(source) || !isObject(source.paypal)) {
      throw invalid('/payment_source', 'INVALID_PARAMETER_VALUE', 'Only payment_source.paypal is modelled.');
    }
    approvalRel = 'payer-action';
    contextField = '/payment_source/paypal/experience_context';
    const ec = source.paypal.experience_context;
    if (ec !== undefined && !isObject(ec)) {
      throw invalid(contextField, 'INVALID_PARAMETER_SYNTAX', 'experience_context is an object.');
    }
    context = ec ?? {};
  } else if (isObject(body.application_context)) {
    context = body.application_context;
  }
  for (const key of ['return_url', 'cancel_url'] as const) {
    if (context[key] !== undefined && !isHttpUrl(context[key])) {
      throw invalid(
        `${contextField}/${key}`,
        'INVALID_PARAMETER_SYNTAX',
        'The value of a field does not conform to the expected format.',
        context[key],
      );
    }
  }
  const enums: Record<string, string[]> = {
    user_action: ['CONTINUE', 'PAY_NOW'],
    shipping_preference: ['GET_FROM_FILE', 'NO_SHIPPING', 'SET_PROVIDED_ADDRESS'],
    landing_page: ['LOGIN', 'GUEST_CHECKOUT', 'NO_PREFERENCE'],
  };
  for (const [key, allowed] of Object.entries(enums)) {
    if (context[key] !== undefined && !allowed.includes(context[key] as string)) {
      throw invalid(
        `${contextField}/${key}`,
        'INVALID_PARAMETER_VALUE',
        'The value of a field is invalid.',
        context[key],
      );
    }
  }
  const brandName = context.brand_name;
  if (brandName !== undefined && (typeof brandName !== 'string' || brandName.length < 1 || brandName.length > 127)) {
    throw invalid(
      `${contextField}/brand_name`,
      'INVALID_STRING_LENGTH',
      'The value of a field is either too short or too long.',
      brandName,
    );
  }
  const now = new Date().toISOString();
  const order: StandInOrder = {
    id: paypalId(17),
    clientId: app.clientId,
    payeeMerchantId,
    ...(texts.custom_id ? { customId: texts.custom_id } : {}),
    ...(texts.invoice_id ? { invoiceId: texts.invoice_id } : {}),
    intent: body.intent,
    status: approvalRel === 'payer-action' ? 'PAYER_ACTION_REQUIRED' : 'CREATED',
    referenceId,
    amount,
    approvalRel,
    createTime: now,
    updateTime: now,
    ...(typeof context.return_url === 'string' ? { returnUrl: context.return_url } : {}),
    ...(typeof context.cancel_url === 'string' ? { cancelUrl: context.cancel_url } : {}),
    ...(typeof brandName === 'string' ? { brandName } : {}),
  };
  s.orders.set(order.id, order);
  return order;
}

/**
 * purchase_units[0].payee: absent or the app's own merchant, or a seller who consented to the
 * app and can receive payments (PayPal's 422 issues otherwise).
 */
export function checkPayee(s: StandInState, payee: unknown, unitField: string, app: StandInApp): string {
  if (payee === undefined) return app.merchantId;
  if (!isObject(payee)) throw invalid(`${unitField}/payee`, 'INVALID_PARAMETER_SYNTAX', 'payee is an object.');
  const id = payee.merchant_id;
  if (id === undefined) {
    // Payee by email is PayPal's too, but nothing here uses it.
    throw invalid(
      `${unitField}/payee/merchant_id`,
      'MISSING_REQUIRED_PARAMETER',
      'A required field / parameter is missing.',
    );
  }
  if (typeof id !== 'string' || !/^[A-Z0-9]{1,20}$/.test(id)) {
    throw invalid(
      `${unitField}/payee/merchant_id`,
      'INVALID_PARAMETER_SYNTAX',
      'The value of a field does not conform to the expected format.',
      id,
    );
  }
  if (id === app.merchantId) return id;
  const seller = s.sellers.get(id);
  const field = `${unitField}/payee/merchant_id`;
  if (!seller) {
    throw unprocessable(
      'PAYEE_ACCOUNT_INVALID',
      'Payee account specified is invalid. Please check the `payee.merchant_id` specified and try again.',
      field,
      id,
    );
  }
  if (!seller.consent || !app.platform) {
    throw unprocessable(
      'PAYEE_NOT_CONSENTED',
      "Payee does not have appropriate consent to allow the API caller to process this type of transaction on their behalf. Your current setup requires the 'payee' to provide a consent before this transaction can be processed successfully.",
      field,
      id,
    );
  }
  if (!seller.paymentsReceivable) {
    throw unprocessable('PAYEE_ACCOUNT_RESTRICTED', 'The merchant account is restricted.', field, id);
  }
  return id;
}

export function findOrder(s: StandInState, id: string, app: StandInApp): StandInOrder {
  const order = s.orders.get(id);
  // Another app's order is as unknown to this one as an order that does not exist.
  if (!order || order.clientId !== app.clientId) {
    throw new PayPalError(404, 'RESOURCE_NOT_FOUND', [
      {
        issue: 'INVALID_RESOURCE_ID',
        description: 'Specified resource ID does not exist. Please check the resource ID and try again.',
        location: 'path',
      },
    ]);
  }
  return order;
}

/** An assertion for a seller reaches only that seller's orders. */
export function forSeller(order: StandInOrder, seller: StandInSeller | undefined): StandInOrder {
  if (seller && seller.merchantId !== order.payeeMerchantId) throw denied();
  return order;
}

export function orderLinks(s: StandInState, order: StandInOrder) {
  const self = { href: `${s.url}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' };
  if (order.status === 'APPROVED') {
    return [self, { href: `${s.url}/v2/checkout/orders/${order.id}/capture`, rel: 'capture', method: 'POST' }];
  }
  if (order.status === 'COMPLETED') return [self];
  return [self, { href: `${s.url}/checkoutnow?token=${order.id}`, rel: order.approvalRel, method: 'GET' }];
}

function payer(order: StandInOrder) {
  return {
    name: { given_name: 'Stand-in', surname: 'Buyer' },
    email_address: 'buyer@paypal-stand-in.test',
    payer_id: order.payerId,
    address: { country_code: 'US' },
  };
}

export function payeeBody(s: StandInState, order: StandInOrder) {
  const seller = s.sellers.get(order.payeeMerchantId);
  return {
    email_address: seller?.primaryEmail ?? `merchant-${order.payeeMerchantId.toLowerCase()}@paypal-stand-in.test`,
    merchant_id: order.payeeMerchantId,
  };
}

export function captureBody(s: StandInState, capture: StandInCapture, order: StandInOrder) {
  return {
    ...capture,
    ...(order.invoiceId ? { invoice_id: order.invoiceId } : {}),
    ...(order.customId ? { custom_id: order.customId } : {}),
    seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
    update_time: capture.create_time,
    links: [
      { href: `${s.url}/v2/payments/captures/${capture.id}`, rel: 'self', method: 'GET' },
      { href: `${s.url}/v2/checkout/orders/${order.id}`, rel: 'up', method: 'GET' },
    ],
  };
}

/** GET's full representation. */
export function orderBody(s: StandInState, order: StandInOrder) {
  const approved = order.payerId !== undefined;
  return {
    id: order.id,
    intent: order.intent,
    status: order.status,
    ...(approved
      ? {
          payment_source: {
            paypal: {
              email_address: 'buyer@paypal-stand-in.test',
              account_id: order.payerId,
              account_status: 'VERIFIED',
              name: { given_name: 'Stand-in', surname: 'Buyer' },
            },
          },
          payer: payer(order),
        }
      : {}),
    purchase_units: [
      {
        reference_id: order.referenceId,
        amount: order.amount,
        payee: payeeBody(s, order),
        ...(order.customId ? { custom_id: order.customId } : {}),
        ...(order.invoiceId ? { invoice_id: order.invoiceId } : {}),
        ...(order.capture ? { payments: { captures: [captureBody(s, order.capture, order)] } } : {}),
      },
    ],
    create_time: order.createTime,
    update_time: order.updateTime,
    links: orderLinks(s, order),
  };
}

export function capture(s: StandInState, order: StandInOrder): { status: number; body: unknown } {
  if (order.intent !== 'CAPTURE') {
    throw unprocessable(
      'ACTION_DOES_NOT_MATCH_INTENT',
      "Order was created with an intent to 'AUTHORIZE'. Please use the authorize endpoint instead.",
    );
  }
  if (order.status === 'COMPLETED') {
    throw unprocessable(
      'ORDER_ALREADY_CAPTURED',
      "Order already captured. If 'intent=CAPTURE' only one capture per order is allowed.",
    );
  }
  if (order.status !== 'APPROVED') {
    throw unprocessable(
      'ORDER_NOT_APPROVED',
      "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
    );
  }
  const decline = s.declineNext;
  s.declineNext = undefined;
  if (decline === 'instrument') {
    // The order stays APPROVED: the buyer may pick another funding source and the capture be retried.
    throw unprocessable(
      'INSTRUMENT_DECLINED',
      "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
    );
  }
  const now = new Date().toISOString();
  order.capture = {
    id: paypalId(17),
    status: decline === 'capture' ? 'DECLINED' : 'COMPLETED',
    amount: { ...order.amount },
    final_capture: true,
    create_time: now,
  };
  order.status = 'COMPLETED';
  order.updateTime = now;
  // PayPal notifies whether or not the capture's answer reaches the shop.
  if (order.clientId === s.platformApp.clientId) autoWebhook(s, captureEvent(s, order.id));
  return {
    status: 201,
    body: {
      id: order.id,
      status: order.status,
      payment_source: orderBody(s, order).payment_source,
      purchase_units: [
        { reference_id: order.referenceId, payments: { captures: [captureBody(s, order.capture, order)] } },
      ],
      payer: payer(order),
      links: [{ href: `${s.url}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' }],
    },
  };
}

export function captureEvent(s: StandInState, orderId: string): WebhookInput {
  const order = s.orders.get(orderId);
  if (!order?.capture) throw new Error(`The stand-in has no captured order ${orderId}.`);
  const c = order.capture;
  const completed = c.status === 'COMPLETED';
  return {
    event_type: completed ? 'PAYMENT.CAPTURE.COMPLETED' : 'PAYMENT.CAPTURE.DENIED',
    resource_type: 'capture',
    summary: completed ? `Payment completed for ${money(c.amount)}` : `A ${money(c.amount)} capture payment was denied`,
    resource: {
      id: c.id,
      status: c.status,
      amount: c.amount,
      final_capture: c.final_capture,
      ...(order.invoiceId ? { invoice_id: order.invoiceId } : {}),
      ...(order.customId ? { custom_id: order.customId } : {}),
      payee: payeeBody(s, order),
      seller_protection: {
        status: 'ELIGIBLE',
        dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'],
      },
      supplementary_data: { related_ids: { order_id: order.id } },
      create_time: c.create_time,
      update_time: c.create_time,
      links: [
        { href: `${s.url}/v2/payments/captures/${c.id}`, rel: 'self', method: 'GET' },
        { href: `${s.url}/v2/payments/captures/${c.id}/refund`, rel: 'refund', method: 'POST' },
        { href: `${s.url}/v2/checkout/orders/${order.id}`, rel: 'up', method: 'GET' },
      ],
    },
  };
}
