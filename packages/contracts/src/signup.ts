// Self-serve sign-up on the platform's own host (decision 103): the rules a store's subdomain must
// follow, written once and zod-free, so the sign-up page checks them as the merchant types (browser)
// with exactly the rules the server applies. The payloads are in signup-schemas.ts.

/** The shortest and longest subdomain: short enough to type, long enough for most store names. */
export const SUBDOMAIN_MIN = 3;
export const SUBDOMAIN_MAX = 40;

/**
 * Names a store may not take: the platform's own hosts and services, mail and DNS conventions, and
 * words a visitor would take for the platform speaking (phishing a merchant's customers).
 */
export const RESERVED_SUBDOMAINS: ReadonlySet<string> = new Set([
  'www',
  'platform',
  'admin',
  'administrator',
  'api',
  'app',
  'apps',
  'mail',
  'email',
  'smtp',
  'imap',
  'pop',
  'mx',
  'ns',
  'ns1',
  'ns2',
  'dns',
  'ftp',
  'operator',
  'operators',
  'console',
  'dashboard',
  'manage',
  'manage-store',
  'signup',
  'sign-up',
  'login',
  'auth',
  'account',
  'accounts',
  'billing',
  'support',
  'help',
  'status',
  'docs',
  'blog',
  'static',
  'assets',
  'media',
  'cdn',
  'shop',
  'store',
  'stores',
  'root',
  'system',
  'security',
  'abuse',
  'postmaster',
  'webmaster',
  'hostmaster',
  'localhost',
  'development',
  'test',
  'staging',
  'dev',
]);

export type SubdomainProblem = 'invalid' | 'reserved' | 'taken';

export const SUBDOMAIN_MESSAGES: Record<SubdomainProblem, string> = {
  invalid: `Use ${SUBDOMAIN_MIN} to ${SUBDOMAIN_MAX} lower-case letters, digits or single hyphens, starting and ending with a letter or digit.`,
  reserved: 'This name is kept for the platform. Please choose another.',
  taken: 'This address is taken. Please choose another.',
};

/** What the merchant typed, as it would be stored: trimmed and lower-case. */
export function normaliseSubdomain(raw: string): string {
  return raw.trim().toLowerCase();
}

/**
 * Why a (normalised) subdomain cannot be a store's, apart from being taken, or null when it can.
 * One DNS label of a-z, 0-9 and hyphens; no leading, trailing or doubled hyphen (a doubled one is
 * how punycode labels start, xn--, which would display as another script's letters).
 */
export function subdomainProblem(subdomain: string): Exclude<SubdomainProblem, 'taken'> | null {
  if (subdomain.length < SUBDOMAIN_MIN || subdomain.length > SUBDOMAIN_MAX) return 'invalid';
  if (!/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(subdomain) || subdomain.includes('--')) return 'invalid';
  if (RESERVED_SUBDOMAINS.has(subdomain)) return 'reserved';
  return null;
}

/** A subdomain suggested from a store name as it is typed ("Acme Lamps & Co." -> "acme-lamps-co"). */
export function suggestSubdomain(storeName: string): string {
  return storeName
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SUBDOMAIN_MAX)
    .replace(/-+$/g, '');
}

export const SIGNUP_TEMPLATES = ['DEFAULT', 'ONE'] as const;
export type SignupTemplate = (typeof SIGNUP_TEMPLATES)[number];
export const SIGNUP_STARTERS = ['empty', 'demo'] as const;
export type SignupStarter = (typeof SIGNUP_STARTERS)[number];

/** The honeypot: a field people never see (off-screen, not announced); only a bot fills it. */
export const SIGNUP_HONEYPOT_FIELD = 'website';

/**
 * The one answer to a sign-up, whether the email already owns a store or not: a stranger learns
 * nothing from it. The mail tells the address's owner which case it is.
 */
export const SIGNUP_ACCEPTED_MESSAGE =
  'Almost there! We have sent you an email: follow its link within 24 hours to open your store.';
