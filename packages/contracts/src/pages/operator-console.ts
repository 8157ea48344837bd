import type { AuditPage } from '../audit';
import type {
  Operator,
  OperatorStoreAction,
  OperatorStoreDetail,
  OperatorStorePage,
  OperatorStoreQuery,
  OperatorToken,
  PlatformAuditPage,
  PlatformAuditQuery,
  PlatformFigures,
  SupportGrant,
  SupportSessionInfo,
} from '../operator';
import type { StoreMove, StoreMoveField, StoreWhereabouts } from '../store-move';
import type { FormOutcome } from '../storefront';

export type OperatorSignInField = 'email' | 'password';
export type OperatorTotpField = 'code';
export type OperatorCreateStoreField =
  | 'storeName'
  | 'subdomain'
  | 'ownerEmail'
  | 'ownerFirstName'
  | 'template'
  | 'content'
  | 'reason';
export type OperatorTokenField = 'name' | 'expiresInDays';

type Done = { ok: true; message: string };

/**
 * The operator console's page functions (`/operator/*` on the platform host, decision 107). The
 * operator is whoever the browser's `psid` cookie names; every function but the sign-in steps
 * refuses a browser without one with a 401 (the console's layout sends it to the sign-in page).
 * Changes check the form came from the platform's origin with its CSRF token, then call the
 * operator module's services, so the page and the API are one set of rules.
 */
export interface OperatorConsolePages {
  /** The signed-in operator, or null. */
  consoleOperator(): Promise<Operator | null>;
  /**
   * The first step. Done: `cookies` to set (no second factor asked) or the challenge the second
   * step needs (`totp`).
   */
  consoleSignIn(
    form: Record<OperatorSignInField, string>,
  ): Promise<
    | { ok: true; step: 'signed-in'; cookies: string[] }
    | { ok: true; step: 'totp'; challenge: string; expiresAt: string }
    | FormOutcome<OperatorSignInField>
  >;
  consoleSignInTotp(form: {
    challenge: string;
    code: string;
  }): Promise<{ ok: true; cookies: string[] } | FormOutcome<OperatorTotpField>>;
  /** Ends this browser's session; `cookies` clear it. */
  consoleSignOut(): Promise<{ cookies: string[] }>;

  consoleStores(params: Record<string, string>): Promise<{ query: OperatorStoreQuery; page: OperatorStorePage }>;
  /** Null: no such store. */
  consoleStore(tenantId: string): Promise<OperatorStoreDetail | null>;
  consoleStoreAudit(tenantId: string, cursor: string | null): Promise<AuditPage>;
  consoleStoreAction(
    tenantId: string,
    action: OperatorStoreAction,
    form: { reason: string },
  ): Promise<Done | FormOutcome<'reason'>>;
  /** Where the store lives, the deployment's databases and its latest move; null: no such store. */
  consoleStoreWhereabouts(tenantId: string): Promise<StoreWhereabouts | null>;
  /** Starts moving the store to another database (a job), with the operator's reason (decision 123). */
  consoleMoveStore(
    tenantId: string,
    form: Record<StoreMoveField, string>,
  ): Promise<(Done & { move: StoreMove }) | FormOutcome<StoreMoveField>>;
  /** Done: the address on the store's host that signs this browser in as support. */
  consoleStartSupport(
    tenantId: string,
    form: { reason: string },
  ): Promise<{ ok: true; enterUrl: string } | FormOutcome<'reason'>>;
  consoleCreateStore(
    form: Record<OperatorCreateStoreField, string>,
  ): Promise<(Done & { tenantId: string; host: string }) | FormOutcome<OperatorCreateStoreField>>;

  consoleAudit(params: Record<string, string>): Promise<{ query: PlatformAuditQuery; page: PlatformAuditPage }>;
  consoleFigures(params: Record<string, string>): Promise<PlatformFigures>;

  consoleTokens(): Promise<OperatorToken[]>;
  /** Done: the secret, shown this once. */
  consoleCreateToken(
    form: Record<OperatorTokenField, string>,
  ): Promise<(Done & { token: OperatorToken; secret: string }) | FormOutcome<OperatorTokenField>>;
  consoleRevokeToken(tokenId: string): Promise<Done | FormOutcome<never>>;
}

/**
 * Support access as the store's dashboard sees it (store host): the owner's grant in Access
 * settings, and the banner of a support session.
 */
export interface SupportAccessPages {
  /** The live grant (null: none), and whether this user may change it (the owner only). */
  supportAccess(): Promise<{ grant: SupportGrant | null; canManage: boolean }>;
  /** intent `grant` (with `hours`) or `revoke`. */
  supportAccessAction(form: { intent: string; hours: string }): Promise<Done | FormOutcome<'hours'>>;
  /** Set when this dashboard session is the platform's support: who, and until when. */
  supportSession(): Promise<SupportSessionInfo | null>;
}
