/**
 * What a store's archive holds (decision 122). Every table with a `tenant_id` column is in the
 * archive unless it is named below with the reason it stays behind: a new table is exported by
 * default, and the plan's test fails if a table is neither exported nor left out on purpose.
 */

/** The archive's format: a reader refuses a version it does not know. */
export const ARCHIVE_FORMAT = 'store-archive';
export const ARCHIVE_VERSION = 1;

/**
 * Tables not in the archive. They are this deployment's, not the store's (its hosts, its state,
 * the platform's grants and caches), secrets sealed under this deployment's key or tokens of its
 * payment providers (which another deployment cannot open), or short-lived (sessions, carts, jobs).
 * An import leaves the target store's own rows of the first group in place.
 */
export const LEFT_OUT: Readonly<Record<string, string>> = {
  // The deployment's record of the store: kept by the target store on import.
  store_hosts: "the deployment's host names; the target store keeps its own",
  store_lifecycle: "the platform's state of the store; the target keeps its own",
  store_lifecycle_history: "the platform's history of the store's states",
  support_grants: "the owner's grant to this platform's operators",
  support_sessions: "this platform's operators' support sessions",
  signup_requests: "the platform's sign-up record (it holds the sign-up's password hash)",
  operator_store_figures: "the operator console's cached figures, recomputed at will",
  store_placements: "which of this deployment's databases holds the store (decision 123)",
  store_moves_under_way: "a move between this deployment's databases (decision 123)",
  store_move_changes: "a move between this deployment's databases (decision 123)",
  // Secrets and the payment providers' tokens of this deployment.
  carrier_accounts: 'UPS and FedEx credentials sealed under this deployment’s key: reconnected after a move',
  stripe_accounts: 'Stripe keys sealed under this deployment’s key: reconnected after a move',
  marketplace_connections: 'marketplace tokens sealed under this deployment’s key',
  paypal_sellers: "the store's PayPal onboarding with this platform's partner account",
  paypal_seller_history: 'the history of that onboarding',
  saved_cards: "card tokens of this deployment's payment provider",
  paypal_checkouts: 'PayPal checkouts in flight',
  stripe_checkouts: 'Stripe checkouts in flight',
  paypal_webhook_events: "PayPal's deliveries to this deployment",
  stripe_webhook_events: "Stripe's deliveries to this deployment",
  // Sign-in secrets and short-lived state.
  sessions: 'signed-in sessions',
  password_resets: 'password reset links',
  email_confirmations: 'email confirmation links',
  auth_attempts: 'sign-in throttling',
  staff_invitations: 'invitation links (a new invitation is sent after a move)',
  customer_invitations: 'invitation links (a new invitation is sent after a move)',
  newsletter_requests: 'sign-up throttling of the newsletter form',
  carts: 'open carts',
  cart_lines: 'open carts',
  cart_idempotency_keys: 'retries of cart requests',
  jobs: 'background work of this deployment',
  sitemap_files: 'generated again from the catalog',
};

/**
 * Columns left out of tables that are in the archive, and what an import writes instead: account
 * passwords never leave the store (every account sets one through "Forgot password" after a move),
 * nor a store's own PayPal app secret (sealed under this deployment's key).
 */
export const REDACTED: Readonly<Record<string, Readonly<Record<string, string | null>>>> = {
  // An argon2 verifier never matches '!': the account signs in only after choosing a password.
  users: { password_hash: '!' },
  payment_configs: { own_client_id: null, own_client_secret_sealed: null },
};

/**
 * Product store ids are unique across the deployment (a host names one), so an archive writes each
 * of the store's as `{store-1}`, `{store-2}`... (in id order) and an import gives them the target
 * store's: its first is the one the target's hosts already point at.
 */
export const PRODUCT_STORE_COLUMN = 'product_store_id';
export const productStorePlaceholder = (n: number) => `{store-${n}}`;

/**
 * Tables whose row the target store already has when it imports (its own row, its product store)
 * or that a trigger has written by the time they come (the derived ones): written as upserts.
 * Every other table is a plain insert, so the append-only audit log never sees an update.
 */
export const UPSERTED: readonly string[] = ['tenants', 'product_stores', 'customer_summaries'];

/** Tables an import writes last, overwriting what triggers derived from the rows before them. */
export const DERIVED_LAST: readonly string[] = ['customer_summaries'];

/**
 * Where a value names its store: media keys (`t/<tenantId>/m/<id>.webp`) and the URLs built on them.
 * The archive writes the placeholder instead, so an archive does not depend on the store's id and an
 * import into another store writes that store's id.
 */
export const TENANT_PLACEHOLDER = '{tenant}';

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `t/<tenantId>/` after a quote or a slash (a key or a URL path) becomes `t/<to>/`. */
export function swapTenantKeys(text: string, from: string, to: string): string {
  if (!text.includes(`t/${from}/`)) return text;
  return text.replace(new RegExp(`(["/])t/${escapeRe(from)}/`, 'g'), `$1t/${to}/`);
}
