import { z } from 'zod';

/**
 * The one failure envelope. It serves every client path of the product's rules:
 * login/register read `data.message`, the others read `errors[0]`, then `message`.
 */
export const errorEnvelopeSchema = z.object({
  error: z.literal(true),
  code: z.string(),
  message: z.string(),
  errors: z.array(z.string()),
  data: z.object({ message: z.string() }),
  requestId: z.string(),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** Stable machine-readable codes; messages are for people and may change. */
export const errorCodes = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'TENANT_MISMATCH',
  'TENANT_NOT_FOUND',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'UNPROCESSABLE',
  'OUT_OF_STOCK',
  'PROMO_INVALID',
  'PAYMENT_DECLINED',
  'PAYMENT_AMOUNT_CHANGED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'REQUEST_TIMEOUT',
  'INTERNAL',
  'UNAVAILABLE',
  'NOT_RETURNABLE',
  'RETURN_QUANTITY_EXCEEDED',
  'REVIEW_NOT_ALLOWED',
  'ALREADY_REVIEWED',
  'INVALID_TRANSITION',
  'EMAIL_NOT_CONFIRMED',
  'STORE_PRIVATE',
  // Access modes (decision 105): an account the owner has not approved (yet), registration closed.
  'ACCOUNT_PENDING_APPROVAL',
  'ACCOUNT_DECLINED',
  'REGISTRATION_CLOSED',
  'REFUND_EXCEEDS_CAPTURED',
  'REFUND_DECLINED',
  // A store's lifecycle state (decision 099): suspended, closed, not open yet, dashboard read-only.
  'STORE_SUSPENDED',
  'STORE_CLOSED',
  'STORE_NOT_OPEN',
  'STORE_READ_ONLY',
  // Products with variants (decision 112; variants.ts): a product id where a variant must be chosen, a
  // variant that cannot be sold.
  'VARIANT_REQUIRED',
  'VARIANT_UNAVAILABLE',
  // Moving a store between databases (decision 123): a database not configured, the store already
  // there, another move off the same database, rows of the store already in the target.
  'UNKNOWN_DATABASE',
  'ALREADY_THERE',
  'MOVE_UNDER_WAY',
  'TARGET_NOT_EMPTY',
  // A write of a store in the seconds it switches databases, refused by the database it leaves: 503
  // with Retry-After, to be sent again.
  'STORE_MOVING',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export { GENERIC_ERROR_MESSAGE, LOGOUT_MESSAGE, TENANT_NOT_SETUP_MESSAGE } from './messages';
