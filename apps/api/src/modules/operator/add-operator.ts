/**
 * Operators on the server's command line (decision 101): production has no seeded one, so the first
 * operator, and every other, is made here, with a TOTP secret for an authenticator app; and an
 * operator who leaves, or loses their authenticator, is handled here too, without SQL:
 *   npm run operator:add -- <email> "<name>"      (OPERATOR_PASSWORD=... to choose the password)
 *   npm run operator:disable -- <email>           (signs them out everywhere; their tokens stop)
 *   npm run operator:enable -- <email>
 *   npm run operator:reset-totp -- <email>        (a new secret; the old authenticator stops working)
 * Uses the database the server would open (DATABASE_URL, else PGlite in DATA_DIR), and seals the TOTP
 * secret under the server's SECRETS_KEY. Every change is in the platform audit log.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Operator } from '@app/contracts';
import { type Db, openDatabase, schema } from '@app/db';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../../config';
import { createSecretBox, type SecretBox, secretsKeyOf } from '../../lib/secret-box';
import { createOperatorAuth, sealTotpSecret, toOperator } from './operator-auth.service';
import { createPlatformAudit } from './platform-audit.service';
import { newTotpSecret, totpUri } from './totp';

export interface AddedOperator {
  operator: Operator;
  password: string;
  totpSecret: string;
  /** The otpauth:// link an authenticator app reads (as a QR code, or typed). */
  uri: string;
}

/** `secrets`: the server's (SECRETS_KEY), which seals the TOTP secret so the server can open it. */
export async function addOperator(
  db: Db,
  secrets: SecretBox,
  input: { email: string; name: string; password?: string; issuer?: string },
): Promise<AddedOperator> {
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new Error(`not an email address: ${input.email}`);
  const password = input.password ?? randomBytes(18).toString('base64url');
  if (password.length < 12) throw new Error('the password must have at least 12 characters');
  const totpSecret = newTotpSecret();
  const audit = createPlatformAudit(db);
  const auth = createOperatorAuth(db, { audit, requireTotp: true, secret: randomBytes(32).toString('hex'), secrets });
  const operator = await auth.createOperator({ email, name: input.name.trim() || email, password, totpSecret });
  await audit.record(db, null, {
    action: 'operator.create',
    targetId: operator.operatorId,
    email,
    details: { via: 'cli' },
  });
  return { operator, password, totpSecret, uri: totpUri(totpSecret, email, input.issuer ?? 'Storefront Platform') };
}

const op = schema.operators;

/** The operator of an email, or an error naming it (the command line prints it). */
async function operatorByEmail(db: Db, email: string) {
  const [row] = await db.select().from(op).where(eq(op.email, email.trim().toLowerCase()));
  if (!row) throw new Error(`no operator has the email ${email}`);
  return row;
}

/**
 * Disables (or enables again) an operator. Disabled, they cannot sign in, and their console
 * sessions and API tokens stop working at the next request (each is checked against the operator);
 * their sessions are also ended, so enabling them later opens none of the old ones.
 */
export async function setOperatorDisabled(db: Db, email: string, disabled: boolean): Promise<Operator> {
  const row = await operatorByEmail(db, email);
  await db.transaction(async (tx) => {
    await tx
      .update(op)
      .set({ disabledAt: disabled ? new Date() : null })
      .where(eq(op.operatorId, row.operatorId));
    if (disabled)
      await tx.delete(schema.operatorSessions).where(eq(schema.operatorSessions.operatorId, row.operatorId));
    await createPlatformAudit(db).record(tx, null, {
      action: disabled ? 'operator.disable' : 'operator.enable',
      targetId: row.operatorId,
      email: row.email,
      details: { via: 'cli' },
    });
  });
  return operatorOf(db, row.operatorId);
}

/**
 * A new TOTP secret for an operator who lost their authenticator: sealed as `addOperator` seals it,
 * the old secret's codes stop working, and their sessions end (whoever holds the old device is out).
 */
export async function resetOperatorTotp(
  db: Db,
  secrets: SecretBox,
  email: string,
  issuer = 'Storefront Platform',
): Promise<{ operator: Operator; totpSecret: string; uri: string }> {
  const row = await operatorByEmail(db, email);
  const totpSecret = newTotpSecret();
  await db.transaction(async (tx) => {
    await tx
      .update(op)
      .set({ totpSecret: sealTotpSecret(secrets, row.operatorId, totpSecret), totpLastStep: null })
      .where(eq(op.operatorId, row.operatorId));
    await tx.delete(schema.operatorSessions).where(eq(schema.operatorSessions.operatorId, row.operatorId));
    await createPlatformAudit(db).record(tx, null, {
      action: 'operator.totp-reset',
      targetId: row.operatorId,
      email: row.email,
      details: { via: 'cli' },
    });
  });
  return { operator: await operatorOf(db, row.operatorId), totpSecret, uri: totpUri(totpSecret, row.email, issuer) };
}

async function operatorOf(db: Db, operatorId: string): Promise<Operator> {
  const [row] = await db.select().from(op).where(eq(op.operatorId, operatorId));
  if (!row) throw new Error(`operator ${operatorId} vanished`);
  return toOperator(row);
}

const USAGE = `usage:
  npm run operator:add -- <email> "<name>"   (OPERATOR_PASSWORD=... to choose the password)
  npm run operator:disable -- <email>
  npm run operator:enable -- <email>
  npm run operator:reset-totp -- <email>`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // `add` when the first word is an email (the original form), else the command's name.
  const words = process.argv.slice(2);
  const command = words[0] && !words[0].includes('@') ? words.shift() : 'add';
  const [email, name] = words;
  if (!email || !['add', 'disable', 'enable', 'reset-totp'].includes(command ?? '')) {
    console.error(USAGE);
    process.exit(64);
  }
  // The server's own settings: its database, and the key it opens TOTP secrets with.
  const config = loadConfig();
  const secrets = createSecretBox(secretsKeyOf(config.SECRETS_KEY, config.SESSION_SECRET ?? ''));
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL || undefined, dataDir: config.DATA_DIR });
  try {
    await database.migrate();
    if (command === 'disable' || command === 'enable') {
      const changed = await setOperatorDisabled(database.db, email, command === 'disable');
      console.log(`operator ${changed.email} (${changed.operatorId}) ${command}d`);
    } else if (command === 'reset-totp') {
      const reset = await resetOperatorTotp(database.db, secrets, email, process.env.PLATFORM_NAME || undefined);
      console.log(`operator ${reset.operator.email}: new TOTP secret; their sessions are ended`);
      console.log(`TOTP secret: ${reset.totpSecret}`);
      console.log(`authenticator link: ${reset.uri}`);
    } else {
      const added = await addOperator(database.db, secrets, {
        email,
        name: name ?? email,
        ...(process.env.OPERATOR_PASSWORD ? { password: process.env.OPERATOR_PASSWORD } : {}),
        ...(process.env.PLATFORM_NAME ? { issuer: process.env.PLATFORM_NAME } : {}),
      });
      console.log(`operator ${added.operator.email} (${added.operator.operatorId}) added`);
      if (!process.env.OPERATOR_PASSWORD) console.log(`password: ${added.password}`);
      console.log(`TOTP secret: ${added.totpSecret}`);
      console.log(`authenticator link: ${added.uri}`);
    }
  } finally {
    await database.close();
  }
}
