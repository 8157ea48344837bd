import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  OPERATOR_TOKEN_PREFIX,
  type Operator,
  type OperatorSignIn,
  type OperatorToken,
  type OperatorTokenCreate,
  type OperatorTokenCreated,
  type OperatorTotp,
} from '@app/contracts';
import { type Db, hashPassword, schema, verifyPassword } from '@app/db';
import { and, asc, count, eq, gt, isNull, lt } from 'drizzle-orm';
import { attemptsRefused, createAttempts, type RateLimitedRefusal } from '../../lib/attempts';
import type { TenantContext } from '../../lib/context';
import { ok, type Refusal, type Result, refuse } from '../../lib/result';
import type { SecretBox } from '../../lib/secret-box';
import type { OperatorPrincipal, OperatorRequest } from './operator-principal';
import type { PlatformAudit } from './platform-audit.service';
import { verifyTotp } from './totp';

const op = schema.operators;
const os = schema.operatorSessions;
const oc = schema.operatorChallenges;
const ot = schema.operatorTokens;

/** A console session lasts 12 hours at most, and ends after 1 hour without a request. */
export const OPERATOR_SESSION_TTL_MS = 12 * 60 * 60_000;
export const OPERATOR_IDLE_MS = 60 * 60_000;
/** The TOTP step must follow the password within 5 minutes, in at most 5 tries. */
export const OPERATOR_CHALLENGE_TTL_MS = 5 * 60_000;
export const OPERATOR_CHALLENGE_TRIES = 5;
/**
 * Sign-in failures allowed per client address and per account in 15 minutes (the stores' login
 * limits, tighter per account: an operator account opens every store).
 */
export const OPERATOR_SIGN_IN_LIMITS = { windowMs: 15 * 60_000, perIp: 20, failuresPerAccount: 5 } as const;

export const OPERATOR_SIGN_IN_FAILED = 'The email or password is not correct.';
export const OPERATOR_TOTP_FAILED = 'That code is not correct or has expired. Enter the code your app shows now.';
export const OPERATOR_TOTP_NOT_SET_UP =
  'This operator account has no second factor set up, which production requires. Ask another operator to set one up.';

// Sign-in attempts are counted with the stores' login attempts, under a tenant id no store can have.
const PLATFORM_ATTEMPTS: TenantContext = {
  tenantId: '~platform',
  productStoreId: '~platform',
  hostName: '',
  viaDevAlias: false,
  origin: '',
};

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

export type OperatorSignInRefusal = RateLimitedRefusal | Refusal<'UNAUTHENTICATED' | 'FORBIDDEN'>;

export type SignedIn = { step: 'signed-in'; token: string; sessionHash: string; expiresAt: Date; operator: Operator };
export type SignInStep = { step: 'totp'; challenge: string; expiresAt: Date } | SignedIn;

export interface OperatorAuthDeps {
  audit: PlatformAudit;
  /** Production: every sign-in takes the TOTP step (decision 101). */
  requireTotp: boolean;
  /** Signs the console's CSRF tokens. */
  secret: string;
  /** Seals each operator's TOTP secret at rest (SECRETS_KEY, decision 049). */
  secrets: SecretBox;
}

/** What a sealed TOTP secret is bound to: opening it as another operator's fails. */
const totpContext = (operatorId: string) => `operator-totp:${operatorId}`;

/** A TOTP secret sealed under the server's key, bound to its operator (a copy on another row opens to nothing). */
export const sealTotpSecret = (secrets: SecretBox, operatorId: string, secret: string) =>
  secrets.seal(secret, totpContext(operatorId));
/** A TOTP secret as the seed writes it (base32, RFC 4648), before it is first sealed. */
const PLAIN_TOTP_SECRET = /^[A-Z2-7]+=*$/;

export interface NewOperator {
  email: string;
  name: string;
  password: string;
  totpSecret?: string | null;
  operatorId?: string;
}

export function toOperator(r: typeof op.$inferSelect): Operator {
  return {
    operatorId: r.operatorId,
    email: r.email,
    name: r.name,
    totpEnabled: r.totpSecret !== null,
    createdAt: r.createdAt.toISOString(),
    lastSignInAt: r.lastSignInAt?.toISOString() ?? null,
  };
}

function toToken(r: typeof ot.$inferSelect): OperatorToken {
  return {
    tokenId: r.tokenId,
    name: r.name,
    prefix: r.prefix,
    operatorId: r.operatorId,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt?.toISOString() ?? null,
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    revokedAt: r.revokedAt?.toISOString() ?? null,
  };
}

/**
 * Operator accounts, their console sessions and their API tokens (decision 101). Nothing here reads
 * or writes a store's accounts or sessions: an operator is no store's user, and a store's session
 * token finds nothing here (nor an operator's there).
 */
export function createOperatorAuth(db: Db, deps: OperatorAuthDeps) {
  const attempts = createAttempts(db);
  let dummyHash: Promise<string> | undefined;

  async function openSession(operatorId: string, client: { ip: string | null; userAgent: string | null }) {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + OPERATOR_SESSION_TTL_MS);
    const sessionHash = sha256(token);
    await db.insert(os).values({
      tokenHash: sessionHash,
      operatorId,
      createdAt: now,
      expiresAt,
      lastSeenAt: now,
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
    });
    const [row] = await db.update(op).set({ lastSignInAt: now }).where(eq(op.operatorId, operatorId)).returning();
    if (!row) throw new Error('operator vanished while signing in');
    return { step: 'signed-in' as const, token, sessionHash, expiresAt, operator: toOperator(row) };
  }

  /**
   * The operator's TOTP secret, opened from its seal; a plain base32 secret (the seed's) as it is.
   * Sealed under another key (SECRETS_KEY changed) it opens to nothing: the code step then fails
   * closed, and the operator's secret must be set up again.
   */
  function totpSecretOf(row: typeof op.$inferSelect): string | null {
    if (!row.totpSecret) return null;
    if (PLAIN_TOTP_SECRET.test(row.totpSecret)) return row.totpSecret;
    return deps.secrets.open(row.totpSecret, totpContext(row.operatorId));
  }

  function clientRequest(client: { ip: string | null; requestId: string }, row: typeof op.$inferSelect) {
    const principal: OperatorPrincipal = {
      operatorId: row.operatorId,
      email: row.email,
      name: row.name,
      via: 'cookie',
      sessionHash: null,
      tokenId: null,
      tokenName: null,
      expiresAt: null,
    };
    return { principal, requestId: client.requestId, ip: client.ip } satisfies OperatorRequest;
  }

  return {
    /** Creates an operator (the seed, the CLI, tests); the email is kept in lower case. */
    async createOperator(input: NewOperator): Promise<Operator> {
      const operatorId = input.operatorId ?? `OP-${randomUUID()}`;
      const [row] = await db
        .insert(op)
        .values({
          operatorId,
          email: input.email.trim().toLowerCase(),
          name: input.name,
          passwordHash: await hashPassword(input.password),
          totpSecret: input.totpSecret ? sealTotpSecret(deps.secrets, operatorId, input.totpSecret) : null,
        })
        .returning();
      if (!row) throw new Error('operator not created');
      return toOperator(row);
    },

    /**
     * The password step. A wrong password and an unknown email get one answer; past the limits,
     * 429. With TOTP required (production) or set up, the answer is a challenge for the code step.
     */
    async signIn(
      input: OperatorSignIn,
      client: { ip: string | null; userAgent: string | null; requestId: string },
    ): Promise<Result<SignInStep, OperatorSignInRefusal>> {
      const ipSubject = `operator-ip:${client.ip ?? 'unknown'}`;
      const accountSubject = `operator:${input.email}`;
      const { windowMs, perIp, failuresPerAccount } = OPERATOR_SIGN_IN_LIMITS;
      const [byIp, byAccount] = await Promise.all([
        attempts.count(PLATFORM_ATTEMPTS, 'login', ipSubject, windowMs, true),
        attempts.count(PLATFORM_ATTEMPTS, 'login', accountSubject, windowMs, true),
      ]);
      if (byIp >= perIp || byAccount >= failuresPerAccount) return attemptsRefused(windowMs);

      const [row] = await db.select().from(op).where(eq(op.email, input.email));
      dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
      const passwordOk = await verifyPassword(row?.passwordHash ?? (await dummyHash), input.password);
      const good = Boolean(row && passwordOk && !row.disabledAt);
      await attempts.record(PLATFORM_ATTEMPTS, 'login', [ipSubject, accountSubject], good);
      if (!row || !good) {
        await deps.audit.record(db, row ? clientRequest(client, row) : null, {
          action: 'operator.sign-in-failed',
          email: input.email,
          details: { step: 'password' },
        });
        // An unknown email is recorded without an operator: the log names the email tried and the address.
        return refuse(401, 'UNAUTHENTICATED', OPERATOR_SIGN_IN_FAILED);
      }
      if (row.totpSecret === null && deps.requireTotp) {
        return refuse(403, 'FORBIDDEN', OPERATOR_TOTP_NOT_SET_UP);
      }
      if (deps.requireTotp) {
        const challenge = randomBytes(32).toString('base64url');
        const expiresAt = new Date(Date.now() + OPERATOR_CHALLENGE_TTL_MS);
        await db.delete(oc).where(lt(oc.expiresAt, new Date()));
        await db.insert(oc).values({ challengeHash: sha256(challenge), operatorId: row.operatorId, expiresAt });
        return ok({ step: 'totp', challenge, expiresAt });
      }
      const done = await openSession(row.operatorId, client);
      await deps.audit.record(db, clientRequest(client, row), { action: 'operator.sign-in', details: { totp: false } });
      return ok(done);
    },

    /** The code step: the challenge of the password step and a code the app shows now (once). */
    async verifyTotp(
      input: OperatorTotp,
      client: { ip: string | null; userAgent: string | null; requestId: string },
      now = Date.now(),
    ): Promise<Result<SignedIn, OperatorSignInRefusal>> {
      const hash = sha256(input.challenge);
      const [found] = await db
        .select({ challenge: oc, operator: op })
        .from(oc)
        .innerJoin(op, eq(op.operatorId, oc.operatorId))
        .where(eq(oc.challengeHash, hash));
      if (!found || found.challenge.expiresAt.getTime() <= now || found.operator.disabledAt) {
        return refuse(401, 'UNAUTHENTICATED', 'This sign-in has expired. Please sign in again.');
      }
      const { operator: row } = found;
      const secret = totpSecretOf(row);
      const step = secret ? verifyTotp(secret, input.code, now) : null;
      // A code is never accepted twice: the step must come after the last one accepted.
      const fresh = step !== null && (row.totpLastStep === null || step > row.totpLastStep);
      if (!fresh) {
        const [after] = await db
          .update(oc)
          .set({ failures: found.challenge.failures + 1 })
          .where(eq(oc.challengeHash, hash))
          .returning({ failures: oc.failures });
        if ((after?.failures ?? OPERATOR_CHALLENGE_TRIES) >= OPERATOR_CHALLENGE_TRIES) {
          await db.delete(oc).where(eq(oc.challengeHash, hash));
        }
        await attempts.record(PLATFORM_ATTEMPTS, 'login', [`operator:${row.email}`], false);
        await deps.audit.record(db, clientRequest(client, row), {
          action: 'operator.sign-in-failed',
          details: { step: 'totp' },
        });
        return refuse(401, 'UNAUTHENTICATED', OPERATOR_TOTP_FAILED);
      }
      // Used once: a second request with the same challenge finds nothing.
      const [used] = await db.delete(oc).where(eq(oc.challengeHash, hash)).returning({ h: oc.challengeHash });
      if (!used) return refuse(401, 'UNAUTHENTICATED', 'This sign-in has expired. Please sign in again.');
      await db
        .update(op)
        .set({
          totpLastStep: step,
          // The seed's demo operator is written before any key exists: its secret is sealed at its first use.
          ...(secret && row.totpSecret === secret
            ? { totpSecret: sealTotpSecret(deps.secrets, row.operatorId, secret) }
            : {}),
        })
        .where(eq(op.operatorId, row.operatorId));
      const done = await openSession(row.operatorId, client);
      await deps.audit.record(db, clientRequest(client, row), { action: 'operator.sign-in', details: { totp: true } });
      return ok(done);
    },

    /** The operator of a console session token, or null (unknown, expired, idle too long, disabled). */
    async resolveSession(token: string | null | undefined, now = Date.now()): Promise<OperatorPrincipal | null> {
      if (!token || token.length > 100) return null;
      const tokenHash = sha256(token);
      const [row] = await db
        .select({ session: os, operator: op })
        .from(os)
        .innerJoin(op, eq(op.operatorId, os.operatorId))
        .where(eq(os.tokenHash, tokenHash));
      if (!row) return null;
      const { session, operator } = row;
      if (
        session.expiresAt.getTime() <= now ||
        session.lastSeenAt.getTime() + OPERATOR_IDLE_MS <= now ||
        operator.disabledAt
      ) {
        await db.delete(os).where(eq(os.tokenHash, tokenHash));
        return null;
      }
      // Written at most once a minute: a console page's several requests cost one update.
      if (now - session.lastSeenAt.getTime() > 60_000) {
        await db
          .update(os)
          .set({ lastSeenAt: new Date(now) })
          .where(eq(os.tokenHash, tokenHash));
      }
      return {
        operatorId: operator.operatorId,
        email: operator.email,
        name: operator.name,
        via: 'cookie',
        sessionHash: tokenHash,
        tokenId: null,
        tokenName: null,
        expiresAt: session.expiresAt,
      };
    },

    /** The operator of an API token (`opt_...`), or null (unknown, revoked, expired, operator disabled). */
    async resolveToken(secret: string | null | undefined, now = Date.now()): Promise<OperatorPrincipal | null> {
      if (!secret?.startsWith(OPERATOR_TOKEN_PREFIX) || secret.length > 100) return null;
      const [row] = await db
        .select({ token: ot, operator: op })
        .from(ot)
        .innerJoin(op, eq(op.operatorId, ot.operatorId))
        .where(eq(ot.tokenHash, sha256(secret)));
      if (!row) return null;
      const { token, operator } = row;
      if (token.revokedAt || (token.expiresAt && token.expiresAt.getTime() <= now) || operator.disabledAt) return null;
      if (!token.lastUsedAt || now - token.lastUsedAt.getTime() > 60_000) {
        await db
          .update(ot)
          .set({ lastUsedAt: new Date(now) })
          .where(eq(ot.tokenId, token.tokenId));
      }
      return {
        operatorId: operator.operatorId,
        email: operator.email,
        name: operator.name,
        via: 'token',
        sessionHash: null,
        tokenId: token.tokenId,
        tokenName: token.name,
        expiresAt: token.expiresAt,
      };
    },

    async operator(operatorId: string): Promise<Operator | null> {
      const [row] = await db.select().from(op).where(eq(op.operatorId, operatorId));
      return row ? toOperator(row) : null;
    },

    /** Ends a console session (sign-out). */
    async signOut(req: OperatorRequest) {
      if (!req.principal.sessionHash) return;
      await db.delete(os).where(eq(os.tokenHash, req.principal.sessionHash));
      await deps.audit.record(db, req, { action: 'operator.sign-out' });
    },

    /** The console's CSRF token: bound to the session, recomputed from it (no table). */
    csrfToken(sessionHash: string): string {
      return createHmac('sha256', deps.secret).update(`operator-csrf\0${sessionHash}`).digest('base64url');
    },

    csrfValid(sessionHash: string, submitted: unknown): boolean {
      if (typeof submitted !== 'string' || submitted.length === 0) return false;
      const expected = Buffer.from(this.csrfToken(sessionHash));
      const given = Buffer.from(submitted);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },

    /** Every token, newest first (revoked ones too: the list is also their history). */
    async listTokens(): Promise<OperatorToken[]> {
      const rows = await db.select().from(ot).orderBy(asc(ot.createdAt), asc(ot.tokenId));
      return rows.reverse().map(toToken);
    },

    /** A new token for the acting operator; its secret is in the answer and nowhere else. */
    async createToken(req: OperatorRequest, input: OperatorTokenCreate): Promise<OperatorTokenCreated> {
      const secret = `${OPERATOR_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const tokenId = `OPT-${randomUUID()}`;
      const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null;
      const row = await db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(ot)
          .values({
            tokenId,
            operatorId: req.principal.operatorId,
            name: input.name,
            tokenHash: sha256(secret),
            prefix: secret.slice(0, OPERATOR_TOKEN_PREFIX.length + 6),
            expiresAt,
          })
          .returning();
        await deps.audit.record(tx, req, {
          action: 'token.create',
          targetId: tokenId,
          details: { name: input.name, expiresAt: expiresAt?.toISOString() ?? null },
        });
        return inserted;
      });
      if (!row) throw new Error('token not created');
      return { token: toToken(row), secret };
    },

    /** Revokes a token at once (any operator may revoke any token: a leaked one must stop now). */
    async revokeToken(req: OperatorRequest, tokenId: string): Promise<Result<OperatorToken, Refusal<'NOT_FOUND'>>> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(ot)
          .set({ revokedAt: new Date() })
          .where(and(eq(ot.tokenId, tokenId), isNull(ot.revokedAt)))
          .returning();
        if (!row) {
          const [existing] = await tx.select().from(ot).where(eq(ot.tokenId, tokenId));
          if (existing) return ok(toToken(existing));
          return refuse(404, 'NOT_FOUND', `Token ${tokenId.slice(0, 64)} was not found.`);
        }
        await deps.audit.record(tx, req, { action: 'token.revoke', targetId: tokenId, details: { name: row.name } });
        return ok(toToken(row));
      });
    },

    /** Live console sessions (a figure for the console; tests). */
    async liveSessions(operatorId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(os)
        .where(and(eq(os.operatorId, operatorId), gt(os.expiresAt, new Date())));
      return row?.n ?? 0;
    },
  };
}

export type OperatorAuth = ReturnType<typeof createOperatorAuth>;
