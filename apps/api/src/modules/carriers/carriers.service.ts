import {
  CARRIER_IDS,
  CARRIER_NAMES,
  CARRIER_SERVICES,
  type Carrier,
  type CarrierAccount,
  type CarrierConnect,
  type CarrierSettings,
  carrierServiceName,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import { requireAccess } from '../../lib/access';
import type { RequestContext } from '../../lib/context';
import type { EventBus } from '../../lib/events/index';
import { ok, type Refusal, type Result, refuse, refuseField } from '../../lib/result';
import type { SecretBox } from '../../lib/secret-box';
import { type AuditService, secret } from '../audit/index';
import { createFedexClient } from './fedex-client';
import type { CarrierCredentials, ClientOptions, RateProvider } from './rate-provider';
import { createUpsClient } from './ups-client';

const ca = schema.carrierAccounts;
export type CarrierRow = typeof ca.$inferSelect;

/** Where the secret is sealed: bound to the store and carrier, so it opens nowhere else. */
export const secretContext = (tenantId: string, carrier: Carrier) => `carrier_accounts:${tenantId}:${carrier}`;

export interface CarriersDeps {
  audit: Pick<AuditService, 'record'>;
  events: Pick<EventBus, 'transaction' | 'emitAfterCommit'>;
  secrets: SecretBox;
  baseUrls: Record<Carrier, string>;
  /** Tests break or count the calls to the carrier; defaults to fetch. */
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** Builds the port's client of one carrier (the one place that knows which client is whose). */
export function providerFor(carrier: Carrier, creds: CarrierCredentials, opts: ClientOptions): RateProvider {
  return carrier === 'ups' ? createUpsClient(creds, opts) : createFedexClient(creds, opts);
}

/**
 * Why a carrier change is not saved: UNPROCESSABLE (422) naming the field (the carrier refused the
 * credentials, a service it does not offer); NOT_FOUND when the carrier is not connected;
 * UNAVAILABLE (409, Retry-After) when the carrier could not be reached to check the credentials.
 */
export type CarrierRefusal = Refusal<'UNPROCESSABLE' | 'NOT_FOUND' | 'UNAVAILABLE'>;

const ending = (accountNumber: string) => accountNumber.slice(-4);

function view(carrier: Carrier, row: CarrierRow | undefined): CarrierAccount {
  return {
    carrier,
    name: CARRIER_NAMES[carrier],
    connected: Boolean(row),
    clientId: row?.clientId ?? null,
    accountEnding: row ? ending(row.accountNumber) : null,
    services: row?.services ?? [],
    available: CARRIER_SERVICES[carrier],
    markupKind: (row?.markupKind as CarrierAccount['markupKind'] | undefined) ?? 'none',
    markupValue: row?.markupValue ?? 0,
    box: { lengthIn: row?.boxLengthIn ?? 12, widthIn: row?.boxWidthIn ?? 9, heightIn: row?.boxHeightIn ?? 6 },
    connectedAt: row?.connectedAt.toISOString() ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/** What the audit log keeps of an account: never the secret (only that one is stored), the account by its ending. */
const audited = (row: CarrierRow | undefined) =>
  row
    ? {
        clientId: row.clientId,
        clientSecret: secret('stored'),
        account: `…${ending(row.accountNumber)}`,
        services: row.services.join(','),
        markup: `${row.markupKind}:${row.markupValue}`,
        box: `${row.boxLengthIn}x${row.boxWidthIn}x${row.boxHeightIn}`,
      }
    : null;

/**
 * A store's carrier accounts (decision 117), on the settings permission: connect (checked with the
 * carrier before anything is saved), the services offered, the markup and box, disconnect. Every
 * change is audited and announced as `settings.changed`, which drops the live rates kept for the store.
 */
export function createCarriersService(db: Db, deps: CarriersDeps) {
  return {
    /** Every carrier, connected or not, as the settings page lists them. */
    async list(ctx: RequestContext): Promise<CarrierAccount[]> {
      requireAccess(ctx, 'settings');
      const rows = await db.select().from(ca).where(eq(ca.tenantId, ctx.tenantId));
      return CARRIER_IDS.map((c) =>
        view(
          c,
          rows.find((r) => r.carrier === c),
        ),
      );
    },

    /**
     * Connects an account, or replaces the connected one's credentials: the carrier is asked for a
     * token with them first. Refused: 422 on clientSecret; unreachable: 409 UNAVAILABLE; nothing is saved either way.
     */
    async connect(
      ctx: RequestContext,
      carrier: Carrier,
      input: CarrierConnect,
    ): Promise<Result<CarrierAccount, CarrierRefusal>> {
      requireAccess(ctx, 'settings');
      const provider = providerFor(carrier, input, {
        baseUrl: deps.baseUrls[carrier],
        fetch: deps.fetch,
        timeoutMs: Math.max(deps.timeoutMs ?? 2_500, 5_000),
      });
      const outcome = await provider.authenticate();
      const name = CARRIER_NAMES[carrier];
      if (outcome === 'refused') {
        return refuseField(422, 'UNPROCESSABLE', 'clientSecret', `${name} refused this client id and secret.`);
      }
      if (outcome === 'unreachable') {
        // The carrier's trouble, not the owner's: 409 with Retry-After (the server itself is fine).
        return refuse(
          409,
          'UNAVAILABLE',
          `${name} could not be reached to check these credentials. Nothing was saved; please try again in a moment.`,
          { headers: { 'Retry-After': '30' } },
        );
      }
      const sealed = deps.secrets.seal(input.clientSecret, secretContext(ctx.tenantId, carrier));
      const row = await deps.events.transaction(async (tx) => {
        const [before] = await tx
          .select()
          .from(ca)
          .where(and(eq(ca.tenantId, ctx.tenantId), eq(ca.carrier, carrier)))
          .for('update');
        const now = new Date();
        const values = {
          clientId: input.clientId,
          clientSecretSealed: sealed,
          accountNumber: input.accountNumber,
          updatedAt: now,
        };
        const [after] = await tx
          .insert(ca)
          .values({
            tenantId: ctx.tenantId,
            carrier,
            ...values,
            // A new account offers the carrier's everyday service until the owner picks.
            services: [CARRIER_SERVICES[carrier][0]?.code ?? ''],
            connectedAt: now,
          })
          .onConflictDoUpdate({ target: [ca.tenantId, ca.carrier], set: values })
          .returning();
        if (!after) throw new Error('carrier_accounts: the row was not written');
        await deps.audit.record(tx, ctx, {
          entity: 'carrier_account',
          entityId: carrier,
          action: before ? 'update' : 'create',
          before: audited(before),
          after: { ...audited(after), clientSecret: secret(before ? 'replaced' : 'stored') },
        });
        deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'carriers' });
        return after;
      });
      return ok(view(carrier, row));
    },

    /** The services offered, the markup, the box: only the fields given change. */
    async update(
      ctx: RequestContext,
      carrier: Carrier,
      input: CarrierSettings,
    ): Promise<Result<CarrierAccount, CarrierRefusal>> {
      requireAccess(ctx, 'settings');
      const known = new Set(CARRIER_SERVICES[carrier].map((s) => s.code));
      const unknown = input.services?.find((s) => !known.has(s));
      if (unknown !== undefined) {
        return refuseField(422, 'UNPROCESSABLE', 'services', `${CARRIER_NAMES[carrier]} has no service "${unknown}".`);
      }
      const written = await deps.events.transaction(async (tx) => {
        const [before] = await tx
          .select()
          .from(ca)
          .where(and(eq(ca.tenantId, ctx.tenantId), eq(ca.carrier, carrier)))
          .for('update');
        if (!before) return null;
        const kind = input.markupKind ?? before.markupKind;
        const next = {
          services: input.services ? [...new Set(input.services)] : before.services,
          markupKind: kind,
          markupValue: kind === 'none' ? 0 : (input.markupValue ?? before.markupValue),
          boxLengthIn: input.box?.lengthIn ?? before.boxLengthIn,
          boxWidthIn: input.box?.widthIn ?? before.boxWidthIn,
          boxHeightIn: input.box?.heightIn ?? before.boxHeightIn,
        };
        if (kind === 'percent' && next.markupValue > 200) return 'percent' as const;
        // What was there already (a form saved as it was shown): nothing written, so the account's
        // version (`updatedAt`) stays, and with it the OAuth token and the rates kept for checkout.
        const same =
          next.services.join(',') === before.services.join(',') &&
          next.markupKind === before.markupKind &&
          next.markupValue === before.markupValue &&
          next.boxLengthIn === before.boxLengthIn &&
          next.boxWidthIn === before.boxWidthIn &&
          next.boxHeightIn === before.boxHeightIn;
        if (same) return before;
        const [after] = await tx
          .update(ca)
          .set({ ...next, updatedAt: new Date() })
          .where(and(eq(ca.tenantId, ctx.tenantId), eq(ca.carrier, carrier)))
          .returning();
        if (!after) throw new Error('carrier_accounts: the row was not updated');
        const changed = await deps.audit.record(tx, ctx, {
          entity: 'carrier_account',
          entityId: carrier,
          action: 'update',
          before: audited(before),
          after: audited(after),
        });
        if (changed) deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'carriers' });
        return after;
      });
      if (written === null) return notConnected(carrier);
      if (written === 'percent') {
        return refuseField(422, 'UNPROCESSABLE', 'markupValue', 'a percent markup is at most 200.');
      }
      return ok(view(carrier, written));
    },

    /** Forgets the account and its sealed secret; checkout stops listing its rates. */
    async disconnect(ctx: RequestContext, carrier: Carrier): Promise<Result<CarrierAccount, CarrierRefusal>> {
      requireAccess(ctx, 'settings');
      const gone = await deps.events.transaction(async (tx) => {
        const [before] = await tx
          .delete(ca)
          .where(and(eq(ca.tenantId, ctx.tenantId), eq(ca.carrier, carrier)))
          .returning();
        if (!before) return false;
        await deps.audit.record(tx, ctx, {
          entity: 'carrier_account',
          entityId: carrier,
          action: 'delete',
          before: audited(before),
          after: null,
        });
        deps.events.emitAfterCommit(tx, 'settings.changed', { tenantId: ctx.tenantId, what: 'carriers' });
        return true;
      });
      if (!gone) return notConnected(carrier);
      return ok(view(carrier, undefined));
    },

    /** For checkout: the store's accounts with their secrets opened (server side only). */
    async accountsOf(tenantId: string) {
      const rows = await db.select().from(ca).where(eq(ca.tenantId, tenantId));
      return rows.flatMap((row) => {
        const carrier = row.carrier as Carrier;
        const plain = deps.secrets.open(row.clientSecretSealed, secretContext(tenantId, carrier));
        // A secret sealed under another key (SECRETS_KEY changed) cannot be used: no live rates.
        return plain === null
          ? []
          : [
              {
                row,
                carrier,
                creds: { clientId: row.clientId, clientSecret: plain, accountNumber: row.accountNumber },
              },
            ];
      });
    },
  };
}

function notConnected(carrier: Carrier): CarrierRefusal {
  return { ok: false, status: 404, code: 'NOT_FOUND', message: `${CARRIER_NAMES[carrier]} is not connected.` };
}

export { carrierServiceName };
export type CarriersService = ReturnType<typeof createCarriersService>;
