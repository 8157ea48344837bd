import { PAYPAL_CONFIG_ID, type PaypalConfig, type PaypalConfigUpdate, type SellerStatus } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { refuseSupport, requireAccess } from '../../../lib/access';
import type { RequestContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import type { EventBus } from '../../../lib/events/index';
import { ok, type Refusal, Refused, type Result, refuse, refuseField, returnRefusals } from '../../../lib/result';
import { SECRET_MASK, type SecretBox } from '../../../lib/secret-box';
import { isPlainObject, takeReadOnly } from '../../../lib/write-back';
import { type AuditService, secret } from '../../audit/index';
import { ownSecretContext, paypalBaseUrlFor } from './payment-accounts';

const pc = schema.paymentConfigs;
const ps = schema.paypalSellers;
type Environment = 'sandbox' | 'live';
type ConfigRow = typeof pc.$inferSelect;

export const PAYPAL_REFUSED_MESSAGE = 'PayPal refused this client id and secret.';
const UNREACHABLE_MESSAGE =
  'PayPal could not be reached to check this client id and secret. Nothing was saved; please try again in a moment.';

/** What PayPal said to a client id and secret: a token (they work), a refusal, or nothing usable. */
export type CredentialCheck = 'ok' | 'refused' | 'unreachable';

/**
 * Asks PayPal for an access token with a store's own app credentials (POST /v1/oauth2/token,
 * client_credentials), which is how PayPal tells whether a client id and secret belong together.
 * Only the outcome comes back: the token is not kept (checkout's client fetches its own), and
 * neither the secret nor PayPal's answer goes into an error or a log line.
 */
export async function checkPayPalCredentials(
  baseUrl: string,
  clientId: string,
  clientSecret: string,
  opts: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<CredentialCheck> {
  const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(`${baseUrl.replace(/\/+$/, '')}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${basic}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
      redirect: 'error',
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
    });
  } catch {
    return 'unreachable';
  }
  const body = (await res.json().catch(() => null)) as { access_token?: unknown } | null;
  if (res.status === 200 && typeof body?.access_token === 'string') return 'ok';
  // 401 invalid_client is PayPal's answer to a wrong pair; 400 to a malformed one. Anything else
  // (5xx, 429, a 200 without a token) says nothing about the credentials.
  if (res.status === 401 || res.status === 400 || res.status === 403) return 'refused';
  return 'unreachable';
}

export interface PaypalConfigDeps {
  audit: Pick<AuditService, 'record'>;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  secrets: SecretBox;
  /** PAYPAL_BASE_URL: where a store's own app is checked when it is a stand-in (paypalBaseUrlFor). */
  platformBaseUrl: string | undefined;
  /** A store without settings yet: the platform's environment. */
  defaultEnvironment: Environment;
  /** Tests count or break the credential check; defaults to fetch. */
  fetch?: typeof fetch;
}

/** The one-row key of a store's PayPal settings. */
const key = (tenantId: string) => and(eq(pc.tenantId, tenantId), eq(pc.configId, PAYPAL_CONFIG_ID));

/**
 * A store's PayPal settings, PP_CONFIG (decisions 049 and 051): PayPal at
 * checkout on or off, and, for a store that brings its own PayPal app, that app's client id and
 * secret. The secret is write-only: sealed before it reaches the database, never in an answer
 * (the mask and `clientSecretSet` say one is stored), never in the audit log (recorded as changed).
 * The payments permission.
 */
/**
 * Why the PayPal settings are not saved: UNPROCESSABLE (422) on `ownApp.clientSecret` when the own
 * app's secret is missing, can no longer be read, or PayPal refuses the app; CONFLICT (409) when
 * another save changed the settings meanwhile.
 */
export type PaypalConfigRefusal = Refusal<'UNPROCESSABLE' | 'CONFLICT'>;

export function createPaypalConfigService(db: Db, deps: PaypalConfigDeps) {
  async function view(tenantId: string, row: ConfigRow | undefined): Promise<PaypalConfig> {
    const [seller] = await db
      .select({ status: ps.status, merchantId: ps.merchantId })
      .from(ps)
      .where(eq(ps.tenantId, tenantId));
    const connected = seller?.status === 'connected' && !!seller.merchantId;
    const ownApp =
      row?.ownClientId && row.ownClientSecretSealed
        ? { clientId: row.ownClientId, clientSecretSet: true as const, clientSecret: SECRET_MASK }
        : null;
    return {
      configId: PAYPAL_CONFIG_ID,
      enabled: row?.enabled ?? true,
      environment: (row?.environment as Environment | undefined) ?? deps.defaultEnvironment,
      mode: ownApp ? 'own_app' : connected ? 'partner' : 'none',
      merchantId: connected ? (seller?.merchantId ?? null) : null,
      ownApp,
      updatedAt: row?.updatedAt.toISOString() ?? null,
    };
  }

  async function readRow(tenantId: string, tx: Db | Tx = db): Promise<ConfigRow | undefined> {
    const [row] = await tx.select().from(pc).where(key(tenantId));
    return row;
  }

  /** The secret a kept own app goes on with, opened to check it with a new client id or environment. */
  function storedSecret(ctx: RequestContext, row: ConfigRow | undefined): Result<string, PaypalConfigRefusal> {
    const plain = row?.ownClientSecretSealed
      ? deps.secrets.open(row.ownClientSecretSealed, ownSecretContext(ctx.tenantId))
      : null;
    if (plain === null) {
      return refuseField(
        422,
        'UNPROCESSABLE',
        'ownApp.clientSecret',
        row?.ownClientSecretSealed
          ? 'the stored secret can no longer be read here; enter the secret again.'
          : 'enter the secret that goes with this client id.',
      );
    }
    return ok(plain);
  }

  return {
    async get(ctx: RequestContext): Promise<PaypalConfig> {
      requireAccess(ctx, 'payments');
      return view(ctx.tenantId, await readRow(ctx.tenantId));
    },

    /** Where the store's seller account stands (the settings page names it beside the merchant id). */
    async sellerStatus(ctx: RequestContext): Promise<SellerStatus> {
      requireAccess(ctx, 'payments');
      const [seller] = await db.select({ status: ps.status }).from(ps).where(eq(ps.tenantId, ctx.tenantId));
      return (seller?.status as SellerStatus | undefined) ?? 'not_started';
    },

    /**
     * The update's body with what the read answers taken back: mode, merchantId
     * and updatedAt when equal to the read (else a 400 naming them), and the read's ownApp with its
     * `clientSecretSet` and masked `clientSecret`: the mask is not a secret, so the stored one is kept.
     */
    async writeBackBody(ctx: RequestContext, body: unknown): Promise<unknown> {
      requireAccess(ctx, 'payments');
      if (!isPlainObject(body)) return body;
      const current = await view(ctx.tenantId, await readRow(ctx.tenantId));
      const out = takeReadOnly(body, current, ['mode', 'merchantId', 'updatedAt']);
      if (isPlainObject(out.ownApp)) {
        const { clientSecretSet, ...app } = out.ownApp;
        if (clientSecretSet !== undefined && clientSecretSet !== true) {
          throw AppError.field(
            400,
            'VALIDATION_FAILED',
            'ownApp.clientSecretSet',
            'is read-only: send it as read, or leave it out',
          );
        }
        if (app.clientSecret === SECRET_MASK) delete app.clientSecret;
        out.ownApp = app;
      }
      return out;
    },

    /**
     * Writes what the update names and keeps the rest. An own app (new, or with another client id,
     * secret or environment) is checked with PayPal first: a refused or unchecked app saves nothing.
     */
    async update(ctx: RequestContext, input: PaypalConfigUpdate): Promise<Result<PaypalConfig, PaypalConfigRefusal>> {
      requireAccess(ctx, 'payments');
      refuseSupport(ctx, "change the store's PayPal account");
      const current = await readRow(ctx.tenantId);
      // A store without settings that is sent its defaults (its read written back) gets no row.
      if (
        !current &&
        (input.enabled ?? true) &&
        (input.environment ?? deps.defaultEnvironment) === deps.defaultEnvironment &&
        !input.ownApp
      ) {
        return ok(await view(ctx.tenantId, current));
      }
      const environment = input.environment ?? (current?.environment as Environment | undefined);
      const env: Environment = environment ?? deps.defaultEnvironment;

      // The own app as it will be: undefined leaves it, null removes it.
      let app: { clientId: string; sealed: string; newSecret: boolean } | null | undefined;
      let check: { clientId: string; secret: string } | null = null;
      if (input.ownApp === null) {
        app = null;
      } else if (input.ownApp) {
        const { clientId, clientSecret } = input.ownApp;
        const stored = clientSecret === undefined && current?.ownClientSecretSealed ? storedSecret(ctx, current) : null;
        if (stored && !stored.ok) return stored;
        const secretPlain = clientSecret ?? stored?.value ?? null;
        if (secretPlain === null) {
          return refuseField(
            422,
            'UNPROCESSABLE',
            'ownApp.clientSecret',
            'enter the secret that goes with this client id.',
          );
        }
        const sameApp = clientSecret === undefined && current?.ownClientId === clientId && current.environment === env;
        if (!sameApp) check = { clientId, secret: secretPlain };
        app = {
          clientId,
          sealed:
            clientSecret !== undefined
              ? deps.secrets.seal(clientSecret, ownSecretContext(ctx.tenantId))
              : (current?.ownClientSecretSealed as string),
          newSecret: clientSecret !== undefined,
        };
      } else if (current?.ownClientId && input.environment && input.environment !== current.environment) {
        // The stored app moves to another environment: PayPal must know it there too.
        const stored = storedSecret(ctx, current);
        if (!stored.ok) return stored;
        check = { clientId: current.ownClientId, secret: stored.value };
      }

      if (check) {
        const outcome = await checkPayPalCredentials(
          paypalBaseUrlFor(env, deps.platformBaseUrl),
          check.clientId,
          check.secret,
          { fetch: deps.fetch },
        );
        if (outcome === 'refused') {
          return refuseField(422, 'UNPROCESSABLE', 'ownApp.clientSecret', PAYPAL_REFUSED_MESSAGE);
        }
        if (outcome === 'unreachable') throw new AppError(502, 'UNAVAILABLE', UNREACHABLE_MESSAGE);
      }

      const written = await returnRefusals<Result<ConfigRow, PaypalConfigRefusal>, PaypalConfigRefusal>(async () =>
        ok(
          await deps.events.transaction(async (tx) => {
            await tx
              .insert(pc)
              .values({ tenantId: ctx.tenantId, configId: PAYPAL_CONFIG_ID, environment: deps.defaultEnvironment })
              .onConflictDoNothing();
            const [before] = await tx.select().from(pc).where(key(ctx.tenantId)).for('update');
            if (!before) throw new Error('payment_configs: the row was not created');
            // The app was checked against what was read before the lock; another save in between
            // (which checked its own) decides what "unchanged" means, so a kept secret must still be it.
            if (app && !app.newSecret && before.ownClientSecretSealed !== app.sealed) {
              throw new Refused(
                refuse(409, 'CONFLICT', 'The PayPal settings were changed meanwhile. Please reload and save again.'),
              );
            }
            const next = {
              enabled: input.enabled ?? before.enabled,
              environment: input.environment ?? before.environment,
              ownClientId: app === undefined ? before.ownClientId : (app?.clientId ?? null),
              ownClientSecretSealed: app === undefined ? before.ownClientSecretSealed : (app?.sealed ?? null),
            };
            const secretChanged = app === null ? before.ownClientSecretSealed !== null : !!app?.newSecret;
            const unchanged =
              !secretChanged &&
              next.enabled === before.enabled &&
              next.environment === before.environment &&
              next.ownClientId === before.ownClientId;
            if (unchanged) return before;
            const userId = ctx.actor.kind === 'staff' || ctx.actor.kind === 'shopper' ? ctx.actor.userId : null;
            const [after] = await tx
              .update(pc)
              .set({ ...next, updatedAt: new Date(), updatedBy: userId })
              .where(key(ctx.tenantId))
              .returning();
            // The secret as the log sees it: whether there is one and whether it changed, never a
            // character of it nor of its sealed form.
            const had = before.ownClientSecretSealed !== null;
            const has = next.ownClientSecretSealed !== null;
            await deps.audit.record(tx, ctx, {
              entity: 'payment_config',
              entityId: PAYPAL_CONFIG_ID,
              action: 'update',
              before: {
                enabled: before.enabled,
                environment: before.environment,
                ownClientId: before.ownClientId,
                ownClientSecret: secret(had ? 'stored' : null),
              },
              after: {
                enabled: next.enabled,
                environment: next.environment,
                ownClientId: next.ownClientId,
                ownClientSecret: secret(has ? (secretChanged ? 'replaced' : 'stored') : null),
              },
            });
            deps.events.emitAfterCommit(tx, 'payments.changed', { tenantId: ctx.tenantId });
            return after as ConfigRow;
          }),
        ),
      );
      if (!written.ok) return written;
      return ok(await view(ctx.tenantId, written.value));
    },
  };
}

export type PaypalConfigService = ReturnType<typeof createPaypalConfigService>;
