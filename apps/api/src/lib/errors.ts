import type { ErrorCode } from '@app/contracts';

/** Seconds a client is asked to wait (Retry-After) before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_S = 5;
export const DATABASE_UNAVAILABLE_MESSAGE = 'The store is briefly unavailable. Please try again in a few seconds.';

/**
 * A request that cannot go on, with the HTTP status it maps to: a guard (not signed in, no
 * permission, an id that is not this store's, a malformed input) or a fault. The errors plugin turns
 * it into the error envelope. Expected business outcomes (out of stock, promo code not valid, limit
 * reached, not allowed in this state) are not thrown: services return them as typed refusals
 * (lib/result.ts; decision 088 has the pattern, 088, 094, 095 and 096 the unions, module by module,
 * and why each throw left is a guard or a fault).
 */
export class AppError extends Error {
  /** The form field at fault, when one is (`AppError.field`): forms show the message next to it. */
  field?: string;
  /** The message as shown next to the field (without the field's name). */
  fieldMessage?: string;

  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly errors: string[] = [message],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  /**
   * A refusal caused by one field of the request. API clients read "field: message" in `errors`
   * (the field named, the API's rules); forms read `field` and `fieldMessage`.
   */
  static field(statusCode: 400 | 409 | 422, code: ErrorCode, field: string, message: string) {
    const err = new AppError(statusCode, code, `${field}: ${message}`);
    err.field = field;
    err.fieldMessage = message.charAt(0).toUpperCase() + message.slice(1);
    return err;
  }
  static badRequest(message: string, errors?: string[]) {
    return new AppError(400, 'BAD_REQUEST', message, errors);
  }
  static notFound(message: string) {
    return new AppError(404, 'NOT_FOUND', message);
  }
  static forbidden(message: string, code: ErrorCode = 'FORBIDDEN') {
    return new AppError(403, code, message);
  }
  static conflict(message: string) {
    return new AppError(409, 'CONFLICT', message);
  }
}

/**
 * A unique-constraint violation (SQLSTATE 23505), as node-postgres throws it and as drizzle wraps
 * PGlite's (in `cause`): the sign that a concurrent request wrote the same row first.
 */
export const isUniqueViolation = (err: unknown): boolean =>
  (err as { code?: string })?.code === '23505' || (err as { cause?: { code?: string } })?.cause?.code === '23505';
