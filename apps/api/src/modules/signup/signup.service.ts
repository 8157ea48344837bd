import { randomBytes } from 'node:crypto';
import {
  normaliseSubdomain,
  SIGNUP_ACCEPTED_MESSAGE,
  SIGNUP_FIELDS,
  SIGNUP_HONEYPOT_FIELD,
  type SignupConfirmed,
  type SignupField,
  SUBDOMAIN_MESSAGES,
  type SubdomainAvailability,
  signupRequestSchema,
  subdomainProblem,
} from '@app/contracts';
import { type Db, hashPassword, schema } from '@app/db';
import { and, count, eq, gt, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { TenantContext } from '../../lib/context';
import { KeyedLimiter } from '../../lib/keyed-limiter';
import { fieldFailure } from '../../lib/page-request';
import { ok, type Refusal, type Result, refuse, refuseField } from '../../lib/result';
import type { StoreDatabases } from '../../lib/store-databases';
import { hashToken, openSession } from '../auth/index';
import type { Mailer } from '../mail/index';
import type { Provisioner } from './provision';

/** How long the mail's link opens the store, and the one-time sign-in link works. */
export const SIGNUP_LINK_TTL_MS = 24 * 3600_000;
export const HANDOFF_TTL_MS = 5 * 60_000;

/**
 * The abuse limits (decision 103): sign-ups one address may make in an hour (429 past it: the
 * address is the caller's own, so saying so tells nothing about anyone else), and mails one email
 * may receive in an hour (past it the answer is the same and no mail goes: the limit must not tell
 * a stranger that the email was used).
 */
export const SIGNUP_LIMITS = { perIpPerHour: 5, mailsPerEmailPerHour: 3, windowMs: 3600_000 } as const;

export interface SignupDeps {
  transport: Mailer;
  provisioner: Provisioner;
  log: FastifyBaseLogger;
  platformName: string;
  /** The new stores' domain ("localhost": acme.localhost). */
  platformDomain: string;
  /** An absolute link to a host, as mail writes it (scheme and port of the configuration). */
  linkOrigin: (host: string) => string;
  platformHost: string;
  /** The databases stores were moved to (decision 123), whose owners' accounts live there. */
  stores: Pick<StoreDatabases, 'movedStores' | 'get'>;
}

export type SignupOutcome =
  | { ok: true; message: string }
  | { ok: false; status: 400 | 409 | 429; message: string; fieldErrors: Partial<Record<SignupField, string>> };

export type ConfirmRefusal = Refusal<'NOT_FOUND' | 'CONFLICT' | 'INVALID_TRANSITION'>;

const sr = schema.signupRequests;
const LINK_INVALID = 'This link is not valid or has expired. Please sign up again.';

export function createSignupService(db: Db, deps: SignupDeps) {
  // One sign-up at a time per address, a few waiting: a burst cannot race past the hourly count.
  const perAddress = new KeyedLimiter(1, 4);
  const hostOf = (subdomain: string) => `${subdomain}.${deps.platformDomain}`;

  /**
   * Sign-ups past their link's life keep nothing they no longer need: one never confirmed is
   * deleted (with its password hash), one that opened a store keeps its row (the store's origin)
   * but not the hash, which the owner's account holds. Run at each new sign-up, before the limits
   * count: a day past expiry is far outside the hour they look at, so the counts are unchanged.
   */
  async function pruneExpired(now = new Date()): Promise<{ deleted: number; cleared: number }> {
    const before = new Date(now.getTime() - 24 * 3600_000);
    const deleted = await db
      .delete(sr)
      .where(and(lt(sr.expiresAt, before), isNull(sr.provisionedAt)))
      .returning({ id: sr.signupId });
    const cleared = await db
      .update(sr)
      .set({ passwordHash: '' })
      .where(and(lt(sr.expiresAt, now), isNotNull(sr.provisionedAt), ne(sr.passwordHash, '')))
      .returning({ id: sr.signupId });
    return { deleted: deleted.length, cleared: cleared.length };
  }

  async function hostTaken(host: string): Promise<boolean> {
    const [row] = await db.select({ n: count() }).from(schema.storeHosts).where(eq(schema.storeHosts.hostName, host));
    return (row?.n ?? 0) > 0;
  }

  async function recent(column: typeof sr.ip | typeof sr.email, value: string): Promise<number> {
    const since = new Date(Date.now() - SIGNUP_LIMITS.windowMs);
    const [row] = await db
      .select({ n: count() })
      .from(sr)
      .where(and(eq(column, value), gt(sr.createdAt, since)));
    return row?.n ?? 0;
  }

  /**
   * The hosts of the stores on `on` this email owns (by the owners' email index), only those of
   * `tenantIds` when given: a database other than home answers for the stores moved to it alone.
   */
  async function ownedOn(on: Db, email: string, tenantIds?: string[]): Promise<string[]> {
    const rows = await on
      .select({ host: schema.productStores.canonicalHost })
      .from(schema.users)
      .innerJoin(schema.productStores, eq(schema.productStores.tenantId, schema.users.tenantId))
      .where(
        and(
          eq(schema.users.email, email),
          eq(schema.users.role, 'admin'),
          tenantIds
            ? sql`${schema.users.tenantId} IN (SELECT jsonb_array_elements_text(${JSON.stringify(tenantIds)}::jsonb))`
            : undefined,
        ),
      )
      .limit(10);
    return rows.map((r) => r.host);
  }

  /**
   * The stores this email already owns (their hosts): the mail says so, the page never does. A
   * moved store's accounts live on its new database (decision 123): each database holding moved
   * stores is asked too, once, for those stores only; with none moved, only the home database is.
   */
  async function storesOwnedBy(email: string): Promise<string[]> {
    const lookups = [ownedOn(db, email)];
    for (const [name, there] of deps.stores.movedStores()) {
      const other = deps.stores.get(name);
      if (other) lookups.push(ownedOn(other.db, email, there));
    }
    // A store whose old copy is not cleared yet may answer from both databases: its host once.
    return [...new Set((await Promise.all(lookups)).flat())].slice(0, 10);
  }

  async function mailConfirmation(
    input: { email: string; storeName: string; subdomain: string },
    token: string,
    owned: string[],
  ) {
    const link = `${deps.linkOrigin(deps.platformHost)}/signup/confirm?token=${token}`;
    const store = `${input.storeName} (${hostOf(input.subdomain)})`;
    const already = owned.length
      ? `This email address already owns ${owned.length === 1 ? 'a store' : 'stores'} on ${deps.platformName}:\n` +
        `${owned.map((h) => `  ${deps.linkOrigin(h)}/auth/login`).join('\n')}\n` +
        'Sign in there to manage it. If you meant to open another store, go on below.\n\n'
      : '';
    const text =
      `Hello,\n\n${already}Someone, we hope you, asked to open the store ${store} on ${deps.platformName} ` +
      `with this email address.\n\nOpen your store here (the link works for 24 hours):\n\n${link}\n\n` +
      'If it was not you, ignore this message: without this link no store is opened.';
    // A sign-up has no store yet, and a mail job belongs to one: the mail goes straight through the
    // transport. A failure is logged; submitting the form again sends a new link.
    await deps.transport
      .send({ to: input.email, subject: `Open your store on ${deps.platformName}`, text })
      .catch((err: unknown) => deps.log.error({ err }, 'sign-up mail not sent'));
  }

  return {
    hostOf,

    /** May a store take this subdomain: the rules, then whether a store has it. */
    async availability(raw: string): Promise<SubdomainAvailability> {
      const subdomain = normaliseSubdomain(raw).slice(0, 200);
      const problem = subdomainProblem(subdomain) ?? ((await hostTaken(hostOf(subdomain))) ? 'taken' : null);
      return {
        subdomain,
        host: hostOf(subdomain),
        available: problem === null,
        problem,
        message: problem ? SUBDOMAIN_MESSAGES[problem] : null,
      };
    },

    /**
     * A sign-up: checks the form, then mails the link that opens the store. The same answer whether
     * the email already owns a store or not (the mail says which), whether the honeypot was filled
     * or the email had too many mails this hour.
     */
    pruneExpired,

    async request(form: Record<string, unknown>, client: { ip: string }): Promise<SignupOutcome> {
      const parsed = signupRequestSchema.safeParse(form);
      if (!parsed.success) {
        const failure = fieldFailure(parsed.error, SIGNUP_FIELDS);
        return { ok: false, status: 400, message: failure.message, fieldErrors: failure.fieldErrors };
      }
      const input = parsed.data;
      const accepted = { ok: true as const, message: SIGNUP_ACCEPTED_MESSAGE };
      // A bot filled the field people never see: it is told what a person is told, and nothing happens.
      if (input[SIGNUP_HONEYPOT_FIELD]) {
        deps.log.info({ ip: client.ip }, 'sign-up honeypot filled');
        return accepted;
      }
      await pruneExpired();
      const run = await perAddress.run(client.ip, async (): Promise<SignupOutcome> => {
        if ((await recent(sr.ip, client.ip)) >= SIGNUP_LIMITS.perIpPerHour) {
          return {
            ok: false,
            status: 429,
            message: 'Too many sign-ups from your address. Please try again in an hour.',
            fieldErrors: {},
          };
        }
        if (await hostTaken(hostOf(input.subdomain))) {
          return {
            ok: false,
            status: 409,
            message: 'Please check the fields marked below.',
            fieldErrors: { subdomain: SUBDOMAIN_MESSAGES.taken },
          };
        }
        // Both kinds of email do the same work (hash, insert, look up stores, mail): same answer, same time.
        const [passwordHash, mails, owned] = await Promise.all([
          hashPassword(input.password),
          recent(sr.email, input.email),
          storesOwnedBy(input.email),
        ]);
        const token = randomBytes(32).toString('base64url');
        await db.insert(sr).values({
          signupId: randomBytes(12).toString('base64url'),
          tokenHash: hashToken(token),
          email: input.email,
          storeName: input.storeName,
          subdomain: input.subdomain,
          passwordHash,
          template: input.template,
          starter: input.starter,
          ip: client.ip,
          expiresAt: new Date(Date.now() + SIGNUP_LINK_TTL_MS),
        });
        if (mails >= SIGNUP_LIMITS.mailsPerEmailPerHour) {
          deps.log.info('sign-up mail held back: the email had its mails for this hour');
        } else {
          await mailConfirmation(input, token, owned);
        }
        return accepted;
      });
      return (
        run?.value ?? {
          ok: false,
          status: 429,
          message: 'Too many sign-ups from your address at once. Please try again in a moment.',
          fieldErrors: {},
        }
      );
    },

    /**
     * The mail's link: opens the store (once; a second click finds the store the first opened) and
     * answers a fresh one-time link that signs the owner in on the store's host, until the owner has
     * signed in through one. After that the mail's link only leads to the store's login page: a mail
     * read later, or by someone else, is not a way into the owner's account for the rest of its day.
     */
    async confirm(token: string): Promise<Result<SignupConfirmed, ConfirmRefusal>> {
      const [row] = await db
        .select()
        .from(sr)
        .where(and(eq(sr.tokenHash, hashToken(token)), gt(sr.expiresAt, new Date())))
        .limit(1);
      if (!row) return refuse(404, 'NOT_FOUND', LINK_INVALID);
      const opened = await deps.provisioner.provisionStore({
        storeName: row.storeName,
        subdomain: row.subdomain,
        owner: { email: row.email, passwordHash: row.passwordHash },
        template: row.template,
        starter: row.starter,
        actor: { kind: 'system', name: 'self-serve sign-up' },
        reason: `Signed up by ${row.email}`,
        idempotencyKey: `signup:${row.signupId}`,
        async alsoInTx(tx, store) {
          await tx
            .update(sr)
            .set({ tenantId: store.tenantId, provisionedAt: new Date() })
            .where(eq(sr.signupId, row.signupId));
        },
      });
      if (!opened.ok) {
        if (opened.code === 'CONFLICT') {
          return refuseField(
            409,
            'CONFLICT',
            'subdomain',
            'this address was taken meanwhile. Please sign up again with another.',
            {
              apiMessage: `${SUBDOMAIN_MESSAGES.taken} Please sign up again.`,
            },
          );
        }
        return opened;
      }
      const origin = deps.linkOrigin(opened.value.host);
      const store = { tenantId: opened.value.tenantId, host: opened.value.host, storeUrl: `${origin}/` };
      if (row.handoffUsedAt) return ok({ ...store, signInUrl: `${origin}/auth/login` });
      const handoff = randomBytes(32).toString('base64url');
      await db
        .update(sr)
        .set({
          handoffHash: hashToken(handoff),
          handoffExpiresAt: new Date(Date.now() + HANDOFF_TTL_MS),
          handoffUsedAt: null,
        })
        .where(eq(sr.signupId, row.signupId));
      return ok({ ...store, signInUrl: `${origin}/api/signup/sign-in?token=${handoff}` });
    },

    /**
     * The one-time sign-in link on the new store's host: a session of the store's owner (a cookie
     * of that host), once, within 5 minutes, on that store only. Null when the link is no good.
     */
    async signIn(ctx: TenantContext, token: string, userAgent: string | null) {
      const [used] = await db
        .update(sr)
        .set({ handoffUsedAt: new Date() })
        .where(
          and(
            eq(sr.handoffHash, hashToken(token)),
            eq(sr.tenantId, ctx.tenantId),
            isNull(sr.handoffUsedAt),
            gt(sr.handoffExpiresAt, new Date()),
          ),
        )
        .returning({ email: sr.email });
      if (!used) return null;
      const [owner] = await db
        .select({ userId: schema.users.userId })
        .from(schema.users)
        .where(
          and(
            eq(schema.users.tenantId, ctx.tenantId),
            eq(schema.users.email, used.email),
            eq(schema.users.role, 'admin'),
          ),
        )
        .limit(1);
      if (!owner) return null;
      return openSession(db, ctx.tenantId, owner.userId, userAgent ?? null);
    },
  };
}

export type SignupService = ReturnType<typeof createSignupService>;
