import {
  type AuditPage,
  OPERATOR_SESSION_COOKIE,
  type OperatorConsolePages,
  type OperatorCreateStore,
  type OperatorCreateStoreField,
  type OperatorCreateStoreResult,
  type OperatorSignInField,
  type OperatorTokenField,
  operatorActionBodySchema,
  operatorCreateStoreSchema,
  operatorSignInSchema,
  operatorStoreQuerySchema,
  operatorTokenCreateSchema,
  operatorTotpSchema,
  platformAuditQuerySchema,
  platformFiguresQuerySchema,
  type StoreMoveField,
  storeMoveRequestSchema,
} from '@app/contracts';
import { AppError } from '../../lib/errors';
import {
  fieldFailure,
  lenient,
  type PlatformPageModule,
  type PlatformPageRequest,
  submitForm,
} from '../../lib/page-request';
import { formRefusal, type Refusal, type Result } from '../../lib/result';
import { cookieValue } from '../auth/index';
import {
  clearedOperatorSessionCookie,
  type OperatorAuth,
  type OperatorMoves,
  type OperatorRequest,
  type OperatorStores,
  operatorSessionCookie,
  type PlatformAudit,
  type SupportAccess,
} from '../operator/index';

export interface ConsolePagesDeps {
  auth: OperatorAuth;
  stores: OperatorStores;
  audit: PlatformAudit;
  support: SupportAccess;
  /** Moves between databases (decision 123); absent when a test boots without the store-move module. */
  moves?: OperatorMoves;
  /** Opens a store for a merchant (the operator's create-store operation: sign-up's provisioning). */
  createStore: (
    req: OperatorRequest,
    input: OperatorCreateStore,
  ) => Promise<Result<OperatorCreateStoreResult, Refusal>>;
}

const SIGN_IN_FIELDS = ['email', 'password'] as const satisfies readonly OperatorSignInField[];
const REASON = ['reason'] as const;
const MOVE_FIELDS = ['database', 'reason'] as const satisfies readonly StoreMoveField[];
const TOKEN_FIELDS = ['name', 'expiresInDays'] as const satisfies readonly OperatorTokenField[];
const CREATE_FIELDS = [
  'storeName',
  'subdomain',
  'ownerEmail',
  'ownerFirstName',
  'template',
  'content',
  'reason',
] as const satisfies readonly OperatorCreateStoreField[];

/** The store's audit log on the console's store page: a short page, the rest behind "Next page". */
const STORE_AUDIT_PAGE = 20;

const signedOut = () => new AppError(401, 'UNAUTHENTICATED', 'Please sign in as a platform operator.');

/**
 * The operator console's page functions (decision 107), on the platform host only. The operator is
 * whoever the browser's `psid` cookie names, resolved as the platform API resolves it; each
 * function then calls the operator module's services, so a page and the API are one set of rules
 * and one audit log. Changes check the form came from the platform's own origin with its CSRF
 * token first (assertFormFromPlatform), sign-in included.
 */
export function consolePages(deps: ConsolePagesDeps): PlatformPageModule<OperatorConsolePages> {
  return (page: PlatformPageRequest) => {
    let resolved: Promise<OperatorRequest | null> | undefined;
    const operatorRequest = () => {
      resolved ??= deps.auth
        .resolveSession(cookieValue(page.headers.cookie, OPERATOR_SESSION_COOKIE))
        .then((principal) => (principal ? { principal, requestId: page.requestId, ip: page.ip } : null));
      return resolved;
    };
    const requireOperator = async () => {
      const req = await operatorRequest();
      if (!req) throw signedOut();
      return req;
    };
    const client = () => ({
      ip: page.ip,
      userAgent: typeof page.headers['user-agent'] === 'string' ? page.headers['user-agent'] : null,
      requestId: page.requestId,
    });
    const sessionCookies = (token: string, expiresAt: Date) => [operatorSessionCookie(token, expiresAt, page.secure)];

    return {
      async consoleOperator() {
        const req = await operatorRequest();
        return req ? deps.auth.operator(req.principal.operatorId) : null;
      },

      consoleSignIn: (form) =>
        submitForm(SIGN_IN_FIELDS, async () => {
          page.assertFormFromPlatform();
          const parsed = operatorSignInSchema.safeParse({ email: form.email, password: form.password });
          if (!parsed.success) return fieldFailure(parsed.error, SIGN_IN_FIELDS);
          const step = await deps.auth.signIn(parsed.data, client());
          if (!step.ok) return formRefusal(step, SIGN_IN_FIELDS);
          if (step.value.step === 'totp') {
            return {
              ok: true as const,
              step: 'totp' as const,
              challenge: step.value.challenge,
              expiresAt: step.value.expiresAt.toISOString(),
            };
          }
          return {
            ok: true as const,
            step: 'signed-in' as const,
            cookies: sessionCookies(step.value.token, step.value.expiresAt),
          };
        }),

      consoleSignInTotp: (form) =>
        submitForm(['code'] as const, async () => {
          page.assertFormFromPlatform();
          const parsed = operatorTotpSchema.safeParse({ challenge: form.challenge || '-', code: form.code });
          if (!parsed.success) return fieldFailure(parsed.error, ['code'] as const);
          const done = await deps.auth.verifyTotp(parsed.data, client());
          if (!done.ok) return formRefusal(done, ['code'] as const);
          return { ok: true as const, cookies: sessionCookies(done.value.token, done.value.expiresAt) };
        }),

      async consoleSignOut() {
        page.assertFormFromPlatform();
        const req = await operatorRequest();
        if (req) await deps.auth.signOut(req);
        return { cookies: [clearedOperatorSessionCookie(page.secure)] };
      },

      async consoleStores(params) {
        await requireOperator();
        const query = lenient(operatorStoreQuerySchema, params);
        return { query, page: await deps.stores.list(query) };
      },

      async consoleStore(tenantId) {
        await requireOperator();
        return deps.stores.detail(tenantId);
      },

      async consoleStoreAudit(tenantId, cursor): Promise<AuditPage> {
        await requireOperator();
        const page = await deps.stores.storeAudit(tenantId, {
          ...(cursor ? { cursor } : {}),
          limit: STORE_AUDIT_PAGE,
        });
        if (!page) throw new AppError(404, 'NOT_FOUND', 'No such store.');
        return page;
      },

      consoleStoreAction: (tenantId, action, form) =>
        submitForm(REASON, async () => {
          page.assertFormFromPlatform();
          const req = await requireOperator();
          const parsed = operatorActionBodySchema.safeParse({ reason: form.reason });
          if (!parsed.success) return fieldFailure(parsed.error, REASON);
          const done = await deps.stores.act(req, tenantId, action, parsed.data.reason);
          if (!done.ok) return formRefusal(done, REASON);
          return { ok: true as const, message: done.value.message };
        }),

      async consoleStoreWhereabouts(tenantId) {
        await requireOperator();
        return deps.moves ? deps.moves.whereabouts(tenantId) : null;
      },

      consoleMoveStore: (tenantId, form) =>
        submitForm(MOVE_FIELDS, async () => {
          page.assertFormFromPlatform();
          const req = await requireOperator();
          const parsed = storeMoveRequestSchema.safeParse({ database: form.database, reason: form.reason });
          if (!parsed.success) return fieldFailure(parsed.error, MOVE_FIELDS);
          if (!deps.moves) throw new AppError(404, 'NOT_FOUND', 'Stores cannot be moved on this deployment.');
          const started = await deps.moves.start(req, tenantId, parsed.data);
          if (!started.ok) return formRefusal(started, MOVE_FIELDS);
          return {
            ok: true as const,
            message: `Moving the store to ${parsed.data.database}.`,
            move: started.value,
          };
        }),

      consoleStartSupport: (tenantId, form) =>
        submitForm(REASON, async () => {
          page.assertFormFromPlatform();
          const req = await requireOperator();
          const parsed = operatorActionBodySchema.safeParse({ reason: form.reason });
          if (!parsed.success) return fieldFailure(parsed.error, REASON);
          const ticket = await deps.support.open(req, tenantId, parsed.data.reason);
          if (!ticket.ok) return formRefusal(ticket, REASON);
          return { ok: true as const, enterUrl: ticket.value.enterUrl };
        }),

      consoleCreateStore: (form) =>
        submitForm(CREATE_FIELDS, async () => {
          page.assertFormFromPlatform();
          const req = await requireOperator();
          const parsed = operatorCreateStoreSchema.safeParse({
            storeName: form.storeName,
            subdomain: form.subdomain,
            ownerEmail: form.ownerEmail,
            ...(form.ownerFirstName?.trim() ? { ownerFirstName: form.ownerFirstName } : {}),
            template: form.template || 'DEFAULT',
            content: form.content || 'empty',
            reason: form.reason,
          });
          if (!parsed.success) return fieldFailure(parsed.error, CREATE_FIELDS);
          const created = await deps.createStore(req, parsed.data);
          if (!created.ok) return formRefusal(created, CREATE_FIELDS);
          return {
            ok: true as const,
            tenantId: created.value.tenantId,
            host: created.value.host,
            message: created.value.invitationSent
              ? `Store created at ${created.value.host}; the owner was mailed an invitation.`
              : `Store created at ${created.value.host}.`,
          };
        }),

      async consoleAudit(params) {
        await requireOperator();
        const query = lenient(platformAuditQuerySchema, params);
        return { query, page: await deps.audit.list(query) };
      },

      async consoleFigures(params) {
        await requireOperator();
        const { days } = lenient(platformFiguresQuerySchema, params);
        return deps.stores.figures(days);
      },

      async consoleTokens() {
        await requireOperator();
        return deps.auth.listTokens();
      },

      consoleCreateToken: (form) =>
        submitForm(TOKEN_FIELDS, async () => {
          page.assertFormFromPlatform();
          const req = await requireOperator();
          const days = form.expiresInDays?.trim();
          const parsed = operatorTokenCreateSchema.safeParse({
            name: form.name,
            ...(days ? { expiresInDays: Number(days) } : {}),
          });
          if (!parsed.success) return fieldFailure(parsed.error, TOKEN_FIELDS);
          const created = await deps.auth.createToken(req, parsed.data);
          return {
            ok: true as const,
            message: `Token “${created.token.name}” created.`,
            token: created.token,
            secret: created.secret,
          };
        }),

      consoleRevokeToken: (tokenId) =>
        submitForm([] as const, async () => {
          page.assertFormFromPlatform();
          const req = await requireOperator();
          const done = await deps.auth.revokeToken(req, tokenId);
          if (!done.ok) return formRefusal(done, [] as const);
          return { ok: true as const, message: `Token “${done.value.name}” revoked: scripts using it are refused.` };
        }),
    };
  };
}
