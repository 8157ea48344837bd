import type { FastifyServerOptions } from 'fastify';

/**
 * Query parameters that carry live secrets: reset tokens, guest order keys, provider codes and
 * signatures. A name is secret when it is one of these words, or (but for `code`, which ends
 * postalCode and promoCode) when its last word is: access_token, apiKey, X-Amz-Signature.
 */
const SECRET_NAMES = new Set(['token', 'key', 'code', 'password', 'secret', 'signature', 'sig', 'passwd', 'pwd']);
const SECRET_LAST_WORDS = new Set(['token', 'key', 'password', 'secret', 'signature']);

export function isSecretParameter(name: string): boolean {
  if (SECRET_NAMES.has(name.toLowerCase())) return true;
  const words = name.split(/[-_.]|(?<=[a-z0-9])(?=[A-Z])/);
  return words.length > 1 && SECRET_LAST_WORDS.has((words.at(-1) ?? '').toLowerCase());
}

const REDACTED = '[redacted]';
// `?name=value` / `&name=value`, the value ending where a URL, a JSON string or a line would.
const PLAIN = /([?&])([\w.[\]-]{1,100})=([^&#\s"\\]*)/g;
// The same inside a percent-encoded URL (a redirectUrl carrying the guest order link).
const ENCODED = /(%3F|%26)([\w.-]{1,100})(%3D)((?:(?!%26|%23)[^&#\s"\\])*)/gi;

// A path whose last segment is itself the secret: a store's product feed URL (decision 054).
const SECRET_PATH = /(\/feeds\/[\w-]{1,40}\/)[A-Za-z0-9_-]{20,}(\.xml)/g;

/** Every secret query parameter's value in `text` (a log line, a URL) replaced by [redacted]. */
export function redactSecrets(text: string): string {
  if (text.includes('/feeds/')) text = text.replace(SECRET_PATH, `$1${REDACTED}$2`);
  if (!text.includes('=') && !/%3D/i.test(text)) return text;
  const swap = (whole: string, sep: string, name: string, eq: string, value: string) =>
    value && isSecretParameter(name) ? `${sep}${name}${eq}${REDACTED}` : whole;
  return text
    .replace(PLAIN, (whole, sep: string, name: string, value: string) => swap(whole, sep, name, '=', value))
    .replace(ENCODED, (whole, sep: string, name: string, eq: string, value: string) =>
      swap(whole, sep, name, eq, value),
    );
}

/**
 * The app's logger options with every written line passed through redactSecrets: the one place that
 * sees the request log's url, error messages and anything a module logs.
 */
export function redactingLogger(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return logger;
  const options = logger === true ? {} : logger;
  const previous = options.hooks?.streamWrite;
  return {
    ...options,
    hooks: { ...options.hooks, streamWrite: (line: string) => redactSecrets(previous ? previous(line) : line) },
  };
}
