import type { ErrorCode, FormOutcome } from '@app/contracts';

/**
 * Expected outcomes as values (decision 088). A service operation whose request can be refused for a
 * reason the caller is meant to act on (out of stock, promo code not valid, limit reached, not
 * allowed in this state, wrong password) returns `Ok<T> | Refusal<...>` instead of throwing; its
 * refusal codes are part of its type, so a caller sees every outcome it has to handle. `AppError`
 * (errors.ts) stays for guards (signed in, permission, an id that is not this store's) and faults.
 *
 * A refusal carries what both of its readers need: the HTTP status, stable code and message of the
 * API's error envelope (`sendRefusal` in plugins/errors.ts), and the form field it belongs to
 * (`formRefusal` below). The two mappings are the only places a refusal changes shape.
 */
export type RefusalStatus = FormOutcome<string>['status'];

export interface Refusal<C extends ErrorCode = ErrorCode> {
  readonly ok: false;
  readonly status: RefusalStatus;
  readonly code: C;
  /** As API clients read it in `message` and `errors[0]`; names the field when there is one. */
  readonly message: string;
  /** The form field at fault, when one is: forms show `fieldMessage` next to it. */
  readonly field?: string;
  /** The message as shown next to the field (without the field's name). */
  readonly fieldMessage?: string;
  /**
   * The message over a form whose field is marked; by default "Please check the fields marked
   * below." A refusal that is its field's whole story (a promo code) repeats itself there.
   */
  readonly formMessage?: string;
  /** Response headers a client acts on (Retry-After). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Ok<T> {
  readonly ok: true;
  readonly value: T;
}

export type Result<T, R extends Refusal = Refusal> = Ok<T> | R;

export const ok = <T>(value: T): Ok<T> => ({ ok: true, value });

export function refuse<C extends ErrorCode>(
  status: RefusalStatus,
  code: C,
  message: string,
  extra: { headers?: Record<string, string> } = {},
): Refusal<C> {
  return { ok: false, status, code, message, ...extra };
}

/**
 * A refusal caused by one field of the request. API clients read "field: message" (the field named);
 * forms show the message, capitalised, next to the field.
 */
export function refuseField<C extends ErrorCode>(
  status: 400 | 409 | 422,
  code: C,
  field: string,
  message: string,
  extra: { formMessage?: string; apiMessage?: string } = {},
): Refusal<C> {
  return {
    ok: false,
    status,
    code,
    message: extra.apiMessage ?? `${field}: ${message}`,
    field,
    fieldMessage: message.charAt(0).toUpperCase() + message.slice(1),
    ...(extra.formMessage ? { formMessage: extra.formMessage } : {}),
  };
}

/**
 * A refusal found inside a database transaction, thrown to roll the transaction back and caught
 * again by `returnRefusals` at the edge of the same service operation, which returns it. It never
 * leaves the service: callers only ever see the returned refusal.
 */
export class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
    this.name = 'Refused';
  }
}

/** Runs a step that may throw `Refused` (to undo its transaction) and returns the refusal instead. */
export async function returnRefusals<T, R extends Refusal>(step: () => Promise<T | R>): Promise<T | R> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof Refused) return err.refusal as R;
    throw err;
  }
}

const FIELDS_MESSAGE = 'Please check the fields marked below.';

/**
 * The one mapping from a refusal to a form's outcome (`{ ok: false, status, message, fieldErrors }`,
 * what the web app's pages read): a refusal of one of the form's fields is shown next to it, any
 * other as the message over the form, with its code for the pages that act on one.
 */
export function formRefusal<F extends string = never>(r: Refusal, fields: readonly F[] = []): FormOutcome<F> {
  const field = r.field as F | undefined;
  if (field && fields.includes(field)) {
    return {
      ok: false,
      status: r.status,
      message: r.formMessage ?? FIELDS_MESSAGE,
      fieldErrors: { [field]: r.fieldMessage } as Partial<Record<F, string>>,
    };
  }
  return { ok: false, status: r.status, message: r.message, fieldErrors: {}, code: r.code };
}
