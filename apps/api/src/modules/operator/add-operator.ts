/**
 * Adds a platform operator (decision 101): production has no seeded one, so the first operator, and
 * every other, is made here on the server, with a TOTP secret for an authenticator app.
 *   npm run operator:add -- <email> "<name>"      (OPERATOR_PASSWORD=... to choose the password)
 * Uses the database the server would open (DATABASE_URL, else PGlite in DATA_DIR), and seals the TOTP
 * secret under the server's SECRETS_KEY.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Operator } from '@app/contracts';
import { type Db, openDatabase } from '@app/db';
import { loadConfig } from '../../config';
import { createSecretBox, type SecretBox, secretsKeyOf } from '../../lib/secret-box';
import { createOperatorAuth } from './operator-auth.service';
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [email, name] = process.argv.slice(2);
  if (!email) {
    console.error('usage: npm run operator:add -- <email> "<name>"   (OPERATOR_PASSWORD=... to choose the password)');
    process.exit(64);
  }
  // The server's own settings: its database, and the key it opens TOTP secrets with.
  const config = loadConfig();
  const secrets = createSecretBox(secretsKeyOf(config.SECRETS_KEY, config.SESSION_SECRET ?? ''));
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL || undefined, dataDir: config.DATA_DIR });
  try {
    await database.migrate();
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
  } finally {
    await database.close();
  }
}
