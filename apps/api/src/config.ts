import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { parseSecretsKey } from './lib/secret-box';
import { parseStoreDatabases } from './lib/store-databases';

/**
 * The environment, checked once at start. A bad value stops the start with
 * a message naming every bad variable; nothing reads process.env after this.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /**
   * Other PostgreSQL databases stores may be moved to (decision 123): `name=postgres://...` pairs,
   * comma-separated. Each is migrated at start; the home database (DATABASE_URL) is named `main`.
   */
  STORE_DATABASES: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      try {
        parseStoreDatabases(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message });
      }
    }),
  DATA_DIR: z.string().min(1).default('./data'),
  /**
   * The embedded database's shared buffers, MB (PostgreSQL's default is 128): its pages count in
   * the server's memory once touched; pages past it come from the operating system's file cache.
   */
  PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(4_096).default(32),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Which seeded tenant the `development` alias (localhost and *development* hosts) points at. In
   * production the alias exists only when this is set, and only for localhost and *.localhost.
   */
  DEV_TENANT_ID: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Seed the demo stores into an empty database at start. */
  SEED_ON_START: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Where the chat provider's widget script is loaded from. */
  CHAT_WIDGET_URL: z.url().default('https://embed.tawk.to'),
  /**
   * The platform's own host (the operator console, sign-up): it never serves a store, not even
   * through the development alias.
   */
  PLATFORM_HOST: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/, 'must be a lower-case host name without port')
    .default('platform.localhost'),
  /** A new store's host is `{subdomain}.{PLATFORM_DOMAIN}` (acme.localhost in development). */
  PLATFORM_DOMAIN: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/, 'must be a lower-case domain without port')
    .default('localhost'),
  /** Shown in the storefront's copyright strip ("Powered by ..."). */
  PLATFORM_NAME: z.string().min(1).max(60).default('Storefront Platform'),
  /** The built storefront (React Router's build directory). */
  WEB_BUILD_DIR: z.string().min(1).default('apps/web/build'),
  /** Seconds to let in-flight requests finish after SIGTERM. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(120).default(10),
  /**
   * Whose X-Forwarded-For, -Host and -Proto to believe: false (nobody's, the default), true (any
   * peer's: only when nothing but the proxy can reach the port), or the proxy's addresses, comma
   * separated (127.0.0.1,10.0.0.0/8), so the forwarded host and scheme are taken only from the proxy
   * (deploy/Caddyfile, decision 121).
   */
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|[0-9a-fA-F:.]+(\/\d{1,3})?(,[0-9a-fA-F:.]+(\/\d{1,3})?)*)$/,
      'must be true, false or the proxy addresses (127.0.0.1,10.0.0.0/8)',
    )
    .default('false')
    .transform((v): boolean | string => (v === 'true' ? true : v === 'false' ? false : v)),
  /**
   * The DNS server the domain checks ask (host:port, 127.0.0.1:5353); unset: the system's resolvers.
   * Decision 121.
   */
  DNS_RESOLVER: z
    .string()
    .regex(/^[0-9a-fA-F:.]+:\d{1,5}$|^[0-9a-fA-F:.]+$/, 'must be an address, or address:port')
    .optional(),
  /** The host a store's own subdomain (shop.example.com) points at by CNAME. Default shops.{PLATFORM_DOMAIN}. */
  DOMAIN_CNAME_TARGET: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/, 'must be a lower-case host name')
    .optional(),
  /** The IPv4 address a store's apex domain (example.com) points at by A record. */
  DOMAIN_A_TARGET: z.ipv4().default('192.0.2.10'),
  /**
   * The IPv6 address a store's apex domain points at by AAAA record, beside the A record; unset: no
   * AAAA record is asked for (and one the domain has must be removed). Decision 125.
   */
  DOMAIN_AAAA_TARGET: z.ipv6().optional(),
  /** smtp:// or smtps:// server for outgoing mail; unset = .eml files in DATA_DIR/outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  /** The From address of mail the platform sends. */
  MAIL_FROM: z.string().min(3).default('Storefront Platform <no-reply@storefront.localhost>'),
  /**
   * How links in mail reach a store: scheme and port put around its canonical host (from the
   * database, never from the request). Defaults: https and no port in production, else http and PORT.
   */
  PUBLIC_SCHEME: z.enum(['http', 'https']).optional(),
  PUBLIC_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  /**
   * PayPal REST credentials of the platform (all three, or none: then checkout offers cards only).
   * https://api-m.sandbox.paypal.com for the sandbox, https://api-m.paypal.com live, or a stand-in.
   */
  PAYPAL_BASE_URL: z.url().optional(),
  PAYPAL_CLIENT_ID: z.string().min(1).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(1).optional(),
  /**
   * The platform's own PayPal merchant id (its partner id): stores connect their PayPal seller
   * accounts through it (decision 049). Unset: stores can only bring their own PayPal app.
   */
  PAYPAL_PARTNER_ID: z
    .string()
    .regex(/^[A-Z0-9]{5,32}$/, 'must be a PayPal merchant id (capital letters and digits)')
    .optional(),
  /** The partner's BN code, sent as PayPal-Partner-Attribution-Id on every PayPal call. */
  PAYPAL_BN_CODE: z.string().min(1).max(64).optional(),
  /** The id PayPal gave the platform's webhook; without it webhooks cannot be verified and are refused. */
  PAYPAL_WEBHOOK_ID: z.string().min(1).max(64).optional(),
  /**
   * Stripe's API, which stores that connect their own Stripe account are paid through (decision 118):
   * https://api.stripe.com, or a stand-in (the browser tests' and the offline demo's).
   */
  STRIPE_BASE_URL: z.url().default('https://api.stripe.com'),
  /**
   * Seals the secrets owners enter (their PayPal app's secret, marketplace tokens): 64 hex characters
   * or the base64 of 32 random bytes. Required in production; elsewhere one is generated in DATA_DIR.
   */
  SECRETS_KEY: z
    .string()
    .refine((v) => parseSecretsKey(v) !== null, 'must be 64 hex characters or the base64 of 32 bytes')
    .optional(),
  /**
   * Failed sign-ins one client address may make on one store in 15 minutes (successful ones never
   * count). Raise it where many people share one address (an office behind one NAT); failures per
   * account stay limited at 10 whatever this says.
   */
  LOGIN_ATTEMPTS_PER_IP: z.coerce.number().int().min(1).max(100_000).default(30),
  /**
   * What the process keeps in memory per store (search indexes, product pages, public answers,
   * store values, host bindings), all stores together, stays under this estimate (decision 124):
   * the entries used least recently go first, whichever cache and store they belong to.
   */
  STORE_MEMORY_MB: z.coerce.number().int().min(16).max(65_536).default(192),
  /**
   * How far V8 lets the JS heap grow past what the last full collection kept, in percent (decision
   * 126). V8's own choice on a host with memory to spare is up to four times the live heap, which at
   * 1,000 stores held 480 MB for 145 MB of live objects; 30 keeps RSS near what is live at some more
   * CPU for collections. 0 leaves V8's choice.
   */
  HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(300).default(30),
  /** Product search indexes of all stores together stay under this (decision 014); least recently used go. */
  SEARCH_INDEX_MEMORY_MB: z.coerce.number().int().min(16).max(65_536).default(512),
  /** After this long a store's search index is read again: bounds how long other processes' writes go unseen. */
  SEARCH_INDEX_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /**
   * Public catalog answers kept in memory per store this many seconds (dropped at once by the
   * store's events; the TTL bounds what a lost event could leave). 0 turns the response cache off.
   */
  PUBLIC_CACHE_SECONDS: z.coerce.number().int().min(0).max(3_600).default(30),
  /** Product pages kept in memory, all stores together (least used stores go first); 0 turns it off. */
  PRODUCT_PAGES_IN_MEMORY: z.coerce.number().int().min(0).max(1_000_000).default(5_000),
  /** Worker threads that render invoice PDFs beside the event loop (decision 024); default: cores - 1, at least 1. */
  INVOICE_PDF_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  /** Invoices of all stores waiting for a worker at most; past that the answer is 503 with Retry-After. */
  INVOICE_PDF_QUEUE: z.coerce.number().int().min(0).max(10_000).default(100),
  /** Invoice PDFs one store renders at once; more wait in the store's queue (decision 024). */
  STORE_PDF_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(1),
  /** Searches and autocompletes one store answers at once; more wait in the store's queue. */
  STORE_SEARCH_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(2),
  /**
   * Requests of one kind a store may have waiting beyond its limit; past that: 429 with Retry-After.
   * Large on purpose: a waiting request costs nothing, while a refused one comes straight back.
   */
  STORE_COSTLY_QUEUE: z.coerce.number().int().min(0).max(10_000).default(32),
  /**
   * Searches one store may have waiting (decision 058): a search is answered from memory in well under
   * a millisecond, so a busy store's shoppers queue briefly instead of being refused at 32.
   */
  STORE_SEARCH_QUEUE: z.coerce.number().int().min(0).max(10_000).default(256),
  /** An order still unpaid (placed) this long after it was placed is settled by the sweep (decision 017). */
  STUCK_ORDER_MINUTES: z.coerce.number().int().min(5).max(10_080).default(30),
  /**
   * Finished jobs (sent mail, sweeps, imports) are deleted this many days after they finished; failed
   * ones are kept four times as long, for whoever looks into why (decision 073).
   */
  JOB_RETENTION_DAYS: z.coerce.number().int().min(1).max(3_650).default(7),
  /** When the nightly jobs (the sweep of stuck orders) run, UTC. */
  NIGHTLY_JOBS_AT: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (UTC)')
    .default('03:00'),
  /** UPS's API (OAuth and Rating) for stores' carrier accounts: the live host, CIE's or a stand-in (decision 117). */
  UPS_BASE_URL: z.url().default('https://onlinetools.ups.com'),
  /** FedEx's API (OAuth and Rate Quotes) for stores' carrier accounts: the live host, the sandbox or a stand-in. */
  FEDEX_BASE_URL: z.url().default('https://apis.fedex.com'),
});

export type Config = Omit<z.infer<typeof envSchema>, 'SESSION_SECRET' | 'SECRETS_KEY'> & {
  SESSION_SECRET: string;
  SECRETS_KEY: string;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings in the environment mean "not set", as in most deployment tools.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`));
  }
  const c = parsed.data;
  const paypalSet = [c.PAYPAL_BASE_URL, c.PAYPAL_CLIENT_ID, c.PAYPAL_CLIENT_SECRET].filter(Boolean).length;
  if (paypalSet !== 0 && paypalSet !== 3) {
    throw new ConfigError(['PAYPAL_BASE_URL, PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET: set all three, or none']);
  }
  const missing = [
    !c.SESSION_SECRET && 'SESSION_SECRET: required in production',
    !c.SECRETS_KEY && 'SECRETS_KEY: required in production',
  ].filter((m): m is string => Boolean(m));
  if (c.NODE_ENV === 'production' && missing.length) throw new ConfigError(missing);
  return {
    ...c,
    DATA_DIR: resolve(c.DATA_DIR),
    WEB_BUILD_DIR: resolve(c.WEB_BUILD_DIR),
    SESSION_SECRET: c.SESSION_SECRET ?? localSecret(c.DATA_DIR, 'session-secret'),
    // Generated as hex so parseSecretsKey reads it back as 32 bytes.
    SECRETS_KEY: c.SECRETS_KEY ?? localSecret(c.DATA_DIR, 'secrets-key', 'hex'),
  };
}

/**
 * Outside production a secret is generated once and kept in DATA_DIR, so sessions survive restarts
 * and sealed secrets stay readable.
 */
function localSecret(dataDir: string, name: string, encoding: 'base64url' | 'hex' = 'base64url'): string {
  const file = join(resolve(dataDir), name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(resolve(dataDir), { recursive: true });
  const secret = randomBytes(32).toString(encoding);
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
