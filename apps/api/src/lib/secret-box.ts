import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Seals the secrets an owner enters (a PayPal app's secret, a marketplace token) before they reach
 * the database: AES-256-GCM under SECRETS_KEY, a fresh nonce per value, the
 * column and the row it belongs to bound in as associated data so a sealed value copied to another
 * store's row does not open there. The key's id (first 8 hex of its SHA-256) leads the value, so a
 * rotated key can be told apart from a tampered value.
 *
 * Nothing here returns a secret to a caller that renders it: `open` is for the code that talks to
 * the provider, and `mask` is what any page or response shows.
 */
export interface SecretBox {
  /** `context` names where the value lives (e.g. `payment_configs:lighting:PP_CONFIG`). */
  seal(plain: string, context: string): string;
  /** The plain text, or null when the value was sealed under another key, for another place, or altered. */
  open(sealed: string, context: string): string | null;
}

const VERSION = 's1';

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new RangeError('SECRETS_KEY must be 32 bytes.');
  const keyId = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return {
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, keyId, iv.toString('base64url'), tag.toString('base64url'), body.toString('base64url')].join(
        '.',
      );
    },
    open(sealed, context) {
      const [version, id, iv, tag, body] = sealed.split('.');
      if (version !== VERSION || id !== keyId || !iv || !tag || body === undefined) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

/**
 * What a page or response shows of a stored secret: that there is one, never any of its characters
 * (even a last-four of a client secret narrows a guess, and there is nothing to recognise it by).
 */
export const SECRET_MASK = '••••••••';

/** SECRETS_KEY as given (64 hex characters or base64 of 32 bytes) to the key's bytes, or null. */
/**
 * The key secrets are sealed under: SECRETS_KEY when set (config.ts requires it in production and
 * keeps a generated one in DATA_DIR elsewhere), else one derived from the session secret (an app
 * built without one: tests). The server and the command-line tools agree through this.
 */
export function secretsKeyOf(secretsKey: string | undefined, sessionSecret: string): Buffer {
  return (
    (secretsKey && parseSecretsKey(secretsKey)) || createHash('sha256').update(`secrets-key:${sessionSecret}`).digest()
  );
}

export function parseSecretsKey(value: string): Buffer | null {
  const v = value.trim();
  if (/^[0-9a-f]{64}$/i.test(v)) return Buffer.from(v, 'hex');
  const b = Buffer.from(v, 'base64');
  return b.length === 32 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(v) ? b : null;
}
