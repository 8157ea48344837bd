import { z } from 'zod';
import { auditPageSchema } from './audit';
import { subdomainSchema } from './signup-schemas';
import {
  storeLifecycleSchema,
  storeStateChangeSchema,
  storeStateSchema,
  storeTransitionReasonSchema,
} from './store-lifecycle';
import { textInt } from './strict-input';

/**
 * The platform operator's API (decision 101): under `/platform-api/` on the platform's own host
 * only (404 anywhere else). A browser signs in (password, then a TOTP code) and holds the `psid`
 * cookie of that host; a script sends `Authorization: Bearer <operator token>`. Every route checks
 * one of the two before it reads the body.
 */
export const OPERATOR_API_PREFIX = '/platform-api';
export const OPERATOR_SESSION_COOKIE = 'psid';
/** An operator token as shown once at creation: the prefix tells it from a store session token. */
export const OPERATOR_TOKEN_PREFIX = 'opt_';
export const OPERATOR_PAGE_MAX = 100;

const email = z
  .string({ error: 'Please enter your email address.' })
  .trim()
  .toLowerCase()
  .min(3, 'Please enter your email address.')
  .max(254, 'Please enter your email address.')
  .pipe(z.email({ error: 'Please enter a valid email address.' }));

// ---------------------------------------------------------------------------------------------
// Sign-in: password, then (required in production) a TOTP code
// ---------------------------------------------------------------------------------------------

/** POST /platform-api/session: the first step. */
export const operatorSignInSchema = z.strictObject({
  email,
  password: z.string({ error: 'Please enter your password.' }).min(1, 'Please enter your password.').max(200),
});
export type OperatorSignIn = z.infer<typeof operatorSignInSchema>;

/** POST /platform-api/session/totp: the second step, with the challenge the first step answered. */
export const operatorTotpSchema = z.strictObject({
  challenge: z.string().min(1).max(200),
  /** The six digits the authenticator app shows (spaces allowed, as apps group them). */
  code: z
    .string({ error: 'Please enter the 6-digit code from your authenticator app.' })
    .transform((v) => v.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, 'Please enter the 6-digit code from your authenticator app.')),
});
export type OperatorTotp = z.infer<typeof operatorTotpSchema>;

export const operatorSchema = z.object({
  operatorId: z.string(),
  email: z.string(),
  name: z.string(),
  /** Whether the account has a second factor set up (every sign-in in production asks for it). */
  totpEnabled: z.boolean(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type Operator = z.infer<typeof operatorSchema>;

/** GET /platform-api/session, and the answer of a completed sign-in. */
export const operatorSessionSchema = z.object({
  operator: operatorSchema,
  /** How this request was authenticated. */
  via: z.enum(['cookie', 'token']),
  /** Cookie sessions send it back as `x-csrf-token` on every change; null for tokens. */
  csrfToken: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type OperatorSession = z.infer<typeof operatorSessionSchema>;

/** The answer of either sign-in step. */
export const operatorSignInResultSchema = z.discriminatedUnion('step', [
  z.object({
    step: z.literal('totp'),
    /** Send back with the code; valid 5 minutes, once. */
    challenge: z.string(),
    expiresAt: z.string(),
  }),
  z.object({ step: z.literal('signed-in'), session: operatorSessionSchema }),
]);
export type OperatorSignInResult = z.infer<typeof operatorSignInResultSchema>;

// ---------------------------------------------------------------------------------------------
// Stores list
// ---------------------------------------------------------------------------------------------

export const OPERATOR_STORE_SORTS = ['created', 'orders30d', 'sales30d'] as const;
export const operatorStoreSortSchema = z.enum(OPERATOR_STORE_SORTS);
export type OperatorStoreSort = z.infer<typeof operatorStoreSortSchema>;
export const OPERATOR_STORE_SORT_LABELS: Readonly<Record<OperatorStoreSort, string>> = {
  created: 'Newest first',
  orders30d: 'Most orders (30 days)',
  sales30d: 'Most sales (30 days)',
};

/** GET /platform-api/stores: newest (or busiest) first, one keyset page. */
export const operatorStoreQuerySchema = z.strictObject({
  /** Part of the store's name, one of its hosts, or its owner's email. */
  q: z.string().trim().max(200).optional(),
  state: storeStateSchema.optional(),
  sort: operatorStoreSortSchema.default('created'),
  /** `nextCursor` of the previous page (the same q, state and sort). */
  cursor: z.string().min(1).max(300).optional(),
  limit: textInt('limit', { min: 1, max: OPERATOR_PAGE_MAX }).default(50),
});
export type OperatorStoreQuery = z.infer<typeof operatorStoreQuerySchema>;

/** Money in minor units of its currency (integer cents). */
export const moneyAmountSchema = z.object({ amount: z.number().int(), currency: z.string() });
export type MoneyAmount = z.infer<typeof moneyAmountSchema>;

/** A grant of support access, as the owner and the operator see it. */
export const supportGrantSchema = z.object({
  grantId: z.string(),
  tenantId: z.string(),
  grantedAt: z.string(),
  expiresAt: z.string(),
  /** The owner's email who granted it. */
  grantedBy: z.string(),
  revokedAt: z.string().nullable(),
  /** Live: not revoked and not expired. */
  active: z.boolean(),
});
export type SupportGrant = z.infer<typeof supportGrantSchema>;

export const operatorStoreRowSchema = z.object({
  tenantId: z.string(),
  name: z.string(),
  /** The main store's canonical host. */
  host: z.string().nullable(),
  ownerEmail: z.string().nullable(),
  state: storeStateSchema,
  createdAt: z.string(),
  /** Paid orders placed in the last 30 days (figures refreshed at most 5 minutes ago). */
  orders30d: z.number().int(),
  /** Their gross sales, in the main store's currency. */
  sales30d: moneyAmountSchema,
});
export type OperatorStoreRow = z.infer<typeof operatorStoreRowSchema>;

export const operatorStorePageSchema = z.object({
  stores: z.array(operatorStoreRowSchema),
  /** Pass as `cursor` for the next page; null on the last. */
  nextCursor: z.string().nullable(),
  /** When the 30-day figures were computed. */
  figuresAt: z.string().nullable(),
});
export type OperatorStorePage = z.infer<typeof operatorStorePageSchema>;

// ---------------------------------------------------------------------------------------------
// A store's page and the actions on it
// ---------------------------------------------------------------------------------------------

export const OPERATOR_STORE_ACTIONS = [
  'suspend',
  'resume',
  'approve-cancel',
  'decline-cancel',
  'close',
  'purge',
  'resend-invitation',
] as const;
export const operatorStoreActionSchema = z.enum(OPERATOR_STORE_ACTIONS);
export type OperatorStoreAction = z.infer<typeof operatorStoreActionSchema>;
export const OPERATOR_STORE_ACTION_LABELS: Readonly<Record<OperatorStoreAction, string>> = {
  suspend: 'Suspend',
  resume: 'Resume',
  'approve-cancel': 'Approve cancel request',
  'decline-cancel': 'Decline cancel request',
  close: 'Close',
  purge: 'Purge',
  'resend-invitation': "Resend the owner's invitation",
};

/** A closed store may be purged this many days after it closed. */
export const PURGE_RETENTION_DAYS = 30;

/** POST /platform-api/stores/{tenantId}/actions/{action}: every action says why. */
export const operatorActionBodySchema = z.strictObject({ reason: storeTransitionReasonSchema });
export type OperatorActionBody = z.infer<typeof operatorActionBodySchema>;

export const operatorActionResultSchema = z.object({
  action: operatorStoreActionSchema,
  lifecycle: storeLifecycleSchema,
  message: z.string(),
});
export type OperatorActionResult = z.infer<typeof operatorActionResultSchema>;

export const operatorStoreDetailSchema = z.object({
  tenantId: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lifecycle: storeLifecycleSchema,
  /** Newest first. */
  history: z.array(storeStateChangeSchema),
  stores: z.array(
    z.object({
      productStoreId: z.string(),
      storeName: z.string(),
      currency: z.string(),
      canonicalHost: z.string(),
    }),
  ),
  hosts: z.array(z.object({ hostName: z.string(), productStoreId: z.string() })),
  owner: z
    .object({
      userId: z.string(),
      email: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      emailConfirmed: z.boolean(),
    })
    .nullable(),
  counts: z.object({
    products: z.number().int(),
    orders: z.number().int(),
    customers: z.number().int(),
    staff: z.number().int(),
    orders30d: z.number().int(),
    sales30d: z.array(moneyAmountSchema),
  }),
  /** The latest of: an order placed, an audit entry written, a session started. */
  lastActivityAt: z.string().nullable(),
  /** The open (requested) cancel request, if any. */
  cancelRequest: z
    .object({
      status: z.string(),
      reason: z.string().nullable(),
      requestedAt: z.string().nullable(),
    })
    .nullable(),
  /** The owner's live support-access grant, if any. */
  supportAccess: supportGrantSchema.nullable(),
  /** What the console may offer from the store's current state. */
  actions: z.array(operatorStoreActionSchema),
  /** For a closed store: from when purge is allowed. */
  purgeAllowedFrom: z.string().nullable(),
});
export type OperatorStoreDetail = z.infer<typeof operatorStoreDetailSchema>;

/** GET /platform-api/stores/{tenantId}/audit: the store's own audit log, as its owner reads it. */
export const operatorStoreAuditQuerySchema = z.strictObject({
  cursor: z.string().min(1).max(200).optional(),
  limit: textInt('limit', { min: 1, max: OPERATOR_PAGE_MAX }).default(50),
});
export const operatorStoreAuditPageSchema = auditPageSchema;

/** POST /platform-api/stores: a store opened by the operator for a merchant (the sign-up's checks). */
export const operatorCreateStoreSchema = z.strictObject({
  storeName: z.string().trim().min(1, 'Please enter the store name.').max(100),
  /** The sign-up's rules: characters, length, reserved words. */
  subdomain: subdomainSchema,
  ownerEmail: email,
  ownerFirstName: z.string().trim().min(1).max(100).optional(),
  template: z.enum(['DEFAULT', 'ONE']).default('DEFAULT'),
  content: z.enum(['empty', 'demo']).default('empty'),
  reason: storeTransitionReasonSchema,
});
export type OperatorCreateStore = z.infer<typeof operatorCreateStoreSchema>;

export const operatorCreateStoreResultSchema = z.object({
  tenantId: z.string(),
  host: z.string(),
  /** The owner was mailed an invitation to set a password. */
  invitationSent: z.boolean(),
});
export type OperatorCreateStoreResult = z.infer<typeof operatorCreateStoreResultSchema>;

// ---------------------------------------------------------------------------------------------
// The platform's audit log
// ---------------------------------------------------------------------------------------------

export const platformAuditQuerySchema = z.strictObject({
  tenantId: z.string().min(1).max(64).optional(),
  operatorId: z.string().min(1).max(64).optional(),
  action: z
    .string()
    .regex(/^[a-z][a-z0-9_.-]{0,63}$/)
    .optional(),
  cursor: z.string().min(1).max(200).optional(),
  limit: textInt('limit', { min: 1, max: OPERATOR_PAGE_MAX }).default(50),
});
export type PlatformAuditQuery = z.infer<typeof platformAuditQuerySchema>;

/** Every operator action: who, when, what, why. Never changed or deleted. */
export const platformAuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({
    kind: z.enum(['operator', 'token', 'system']),
    /** The operator (also for a token: the operator who created it). */
    operatorId: z.string().nullable(),
    email: z.string().nullable(),
    /** For a token: its id and name. */
    tokenId: z.string().nullable(),
    tokenName: z.string().nullable(),
  }),
  /** e.g. `store.suspend`, `operator.sign-in`, `token.create`, `support.open`. */
  action: z.string(),
  /** The store acted on, if any. */
  tenantId: z.string().nullable(),
  /** What else was acted on (a token's id, an operator's id). */
  targetId: z.string().nullable(),
  reason: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  requestId: z.string().nullable(),
  ip: z.string().nullable(),
});
export type PlatformAuditEntry = z.infer<typeof platformAuditEntrySchema>;

export const platformAuditPageSchema = z.object({
  entries: z.array(platformAuditEntrySchema),
  nextCursor: z.string().nullable(),
});
export type PlatformAuditPage = z.infer<typeof platformAuditPageSchema>;

// ---------------------------------------------------------------------------------------------
// Platform figures
// ---------------------------------------------------------------------------------------------

export const platformFiguresQuerySchema = z.strictObject({
  days: textInt('days', { min: 1, max: 365 }).default(30),
});

export const platformFiguresSchema = z.object({
  days: z.number().int(),
  /** Every state, 0 included. */
  storesByState: z.record(storeStateSchema, z.number().int()),
  totalStores: z.number().int(),
  /** One entry per UTC day of the range, oldest first, days without any included. */
  perDay: z.array(
    z.object({
      day: z.string(),
      signups: z.number().int(),
      orders: z.number().int(),
      /** Gross sales of the day's paid orders, per currency (stores sell in their own). */
      sales: z.array(moneyAmountSchema),
    }),
  ),
});
export type PlatformFigures = z.infer<typeof platformFiguresSchema>;

/**
 * What this process keeps in memory per store (decision 124): the one budget every cache is
 * charged to (estimates), each cache's share and how many entries the budget took back, and the
 * process's own figures beside them. Per process: each app process answers for itself.
 */
export const platformMemorySchema = z.object({
  limitBytes: z.number().int(),
  usedBytes: z.number().int(),
  entries: z.number().int(),
  evictions: z.number().int(),
  caches: z.array(
    z.object({
      name: z.string(),
      entries: z.number().int(),
      bytes: z.number().int(),
      evictions: z.number().int(),
    }),
  ),
  /** RSS beyond the heap in use and external memory is V8's committed heap and native memory. */
  process: z.object({
    rssBytes: z.number().int(),
    heapUsedBytes: z.number().int(),
    heapTotalBytes: z.number().int(),
    externalBytes: z.number().int(),
    /** V8's heap by space: committed (`sizeBytes`) against live (`usedBytes`). */
    heapSpaces: z.array(z.object({ name: z.string(), sizeBytes: z.number().int(), usedBytes: z.number().int() })),
  }),
});
export type PlatformMemory = z.infer<typeof platformMemorySchema>;

// ---------------------------------------------------------------------------------------------
// Operator tokens (scripts)
// ---------------------------------------------------------------------------------------------

export const operatorTokenCreateSchema = z.strictObject({
  name: z.string().trim().min(1, 'Please name the token (what uses it).').max(100),
  /** Days until it expires; none: until revoked. */
  expiresInDays: z.number().int().min(1).max(3650).optional(),
});
export type OperatorTokenCreate = z.infer<typeof operatorTokenCreateSchema>;

export const operatorTokenSchema = z.object({
  tokenId: z.string(),
  name: z.string(),
  /** The first characters of the secret, to recognise it (`opt_ab12…`). */
  prefix: z.string(),
  operatorId: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type OperatorToken = z.infer<typeof operatorTokenSchema>;

export const operatorTokenListSchema = z.object({ tokens: z.array(operatorTokenSchema) });

/** The answer of POST /platform-api/tokens: the only time the secret is shown. */
export const operatorTokenCreatedSchema = z.object({ token: operatorTokenSchema, secret: z.string() });
export type OperatorTokenCreated = z.infer<typeof operatorTokenCreatedSchema>;

// ---------------------------------------------------------------------------------------------
// Support access (the owner's consent, then the operator's support session)
// ---------------------------------------------------------------------------------------------

export const SUPPORT_ACCESS_MIN_HOURS = 1;
export const SUPPORT_ACCESS_MAX_HOURS = 72;

/** GET /api/tenant/support-access (store host, owner only): the live grant, if any. */
export const supportAccessStateSchema = z.object({ grant: supportGrantSchema.nullable() });
export type SupportAccessState = z.infer<typeof supportAccessStateSchema>;

/** POST /api/tenant/support-access: grant (or extend to) `hours` from now. */
export const supportGrantCreateSchema = z.strictObject({
  hours: z
    .number({ error: `Choose between ${SUPPORT_ACCESS_MIN_HOURS} and ${SUPPORT_ACCESS_MAX_HOURS} hours.` })
    .int(`Choose between ${SUPPORT_ACCESS_MIN_HOURS} and ${SUPPORT_ACCESS_MAX_HOURS} hours.`)
    .min(SUPPORT_ACCESS_MIN_HOURS, `Choose between ${SUPPORT_ACCESS_MIN_HOURS} and ${SUPPORT_ACCESS_MAX_HOURS} hours.`)
    .max(SUPPORT_ACCESS_MAX_HOURS, `Choose between ${SUPPORT_ACCESS_MIN_HOURS} and ${SUPPORT_ACCESS_MAX_HOURS} hours.`),
});
export type SupportGrantCreate = z.infer<typeof supportGrantCreateSchema>;
/** The durations Access settings offers. */
export const SUPPORT_ACCESS_HOUR_CHOICES = [1, 4, 24, 72] as const;

/**
 * POST /platform-api/stores/{tenantId}/support-session: while a grant is live. The operator's browser
 * opens `enterUrl` (on the store's host, valid 60 seconds, once), which signs it in to the store's
 * dashboard as support and sends it to /manage-store.
 */
export const supportSessionStartSchema = z.strictObject({ reason: storeTransitionReasonSchema });
export const supportSessionTicketSchema = z.object({
  enterUrl: z.string(),
  /** When the support session ends at the latest (the grant's end). */
  expiresAt: z.string(),
});
export type SupportSessionTicket = z.infer<typeof supportSessionTicketSchema>;

/** What the dashboard shows in a support session (the banner): who the operator is, until when. */
export const supportSessionInfoSchema = z.object({
  operatorEmail: z.string(),
  expiresAt: z.string(),
});
export type SupportSessionInfo = z.infer<typeof supportSessionInfoSchema>;

export const tenantIdParamsSchema = z.object({ tenantId: z.string().trim().min(1).max(64) });
export const operatorActionParamsSchema = tenantIdParamsSchema.extend({ action: operatorStoreActionSchema });
export const tokenIdParamsSchema = z.object({ tokenId: z.string().trim().min(1).max(64) });
