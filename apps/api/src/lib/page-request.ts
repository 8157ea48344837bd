import type { IncomingHttpHeaders } from 'node:http';
import type { FormOutcome } from '@app/contracts';
import type { z } from 'zod';
import type { RequestContext } from './context';
import { AppError } from './errors';
import { formRefusal, type RefusalStatus } from './result';

/**
 * One page request as the page modules see it: the resolved context (never null: an unknown host
 * never reaches a page module) and the few things of the HTTP request a page action needs.
 * Built once per request by the page server (modules/storefront/pages.ts).
 */
export interface PageRequest {
  ctx: RequestContext;
  headers: IncomingHttpHeaders;
  secure: boolean;
  /**
   * Every change a form asks for must come from this store's own origin with this browser's CSRF
   * token; throws the 403 the forms turn into a message otherwise.
   */
  assertFormFromStore(): void;
  /** A public read shared by every shopper of the store, through the per-tenant read cache. */
  cached<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

/**
 * A domain's page functions: built with the domain's services once, then bound to each page
 * request. The page server merges every module's functions into the one `api` that loaders call,
 * so adding a page area means adding a module, not editing a central file.
 */
export type PageModule<T extends object> = (page: PageRequest) => T;

const FIELDS_MESSAGE = 'Please check the fields marked below.';

/** A form's validation failure: the first message per field, for display next to the fields. */
export function fieldFailure<F extends string>(error: z.ZodError, fields: readonly F[]): FormOutcome<F> {
  const fieldErrors: Partial<Record<F, string>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as F;
    if (fields.includes(field) && !fieldErrors[field]) fieldErrors[field] = issue.message;
  }
  return { ok: false, status: 400, message: FIELDS_MESSAGE, fieldErrors };
}

const FORM_STATUSES = [400, 401, 403, 404, 409, 422, 429] as const;

/**
 * A refusal the shopper or owner can act on (wrong password, too many tries, foreign origin, a
 * taken email) becomes a message; one that names a field of the form (`AppError.field`) is shown
 * next to that field. Anything else is a real error and goes on to the error page.
 */
export function formFailure<F extends string = never>(err: unknown, fields: readonly F[] = []): FormOutcome<F> {
  if (!(err instanceof AppError) || !(FORM_STATUSES as readonly number[]).includes(err.statusCode)) throw err;
  // A guard's refusal (signed out, another origin) reads on a form as a returned refusal does.
  return formRefusal(
    {
      ok: false,
      status: err.statusCode as RefusalStatus,
      code: err.code,
      message: err.message,
      ...(err.field ? { field: err.field, fieldMessage: err.fieldMessage } : {}),
    },
    fields,
  );
}

/** Runs a form's change, turning a refusal into the form's outcome (see formFailure). */
export async function submitForm<T, F extends string = never>(
  fields: readonly F[],
  change: () => Promise<T>,
): Promise<T | FormOutcome<F>> {
  try {
    return await change();
  } catch (err) {
    return formFailure(err, fields);
  }
}

/** A read that answers null for "not found" (a page shows its 404), and throws anything else. */
export function nullIfNotFound(err: unknown): null {
  if (err instanceof AppError && err.statusCode === 404) return null;
  throw err;
}

/** Parses page URL params with an API schema, dropping the params it rejects. */
export function lenient<S extends z.ZodType>(schema: S, params: Record<string, string>): z.infer<S> {
  const input: Record<string, string> = { ...params };
  for (let i = 0; i < 10; i++) {
    const r = schema.safeParse(input);
    if (r.success) return r.data;
    const bad = new Set(r.error.issues.map((x) => String(x.path[0] ?? '')));
    let dropped = false;
    for (const k of bad) {
      if (k && k in input && k !== 'searchText') {
        delete input[k];
        dropped = true;
      }
    }
    // Unknown keys are reported without a path: keep only what the schema knows.
    if (!dropped) {
      for (const issue of r.error.issues) {
        if (issue.code === 'unrecognized_keys') for (const k of issue.keys) delete input[k];
      }
      const again = schema.safeParse(input);
      if (again.success) return again.data;
      break;
    }
  }
  throw AppError.badRequest('The search is not valid.');
}

/**
 * One page request on the platform's own host (sign-up, operator console; decision 103): there is
 * no store, so no store context; a platform page module resolves whoever acts (an operator's
 * session) from the headers itself.
 */
export interface PlatformPageRequest {
  headers: IncomingHttpHeaders;
  secure: boolean;
  /** The platform host's origin as the browser sees it (http://platform.localhost:3000). */
  origin: string;
  /** The client's address (behind TRUST_PROXY, the forwarded one), for the abuse limits. */
  ip: string;
  requestId: string;
  /** A form post must come from the platform's own origin with this browser's CSRF token. */
  assertFormFromPlatform(): void;
}

/** A domain's platform page functions, bound to each platform page request (see PageModule). */
export type PlatformPageModule<T extends object> = (page: PlatformPageRequest) => T;
