import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238, on HOTP, RFC 4226), as authenticator apps make them:
 * HMAC-SHA1 of the 30-second step count, 6 digits. Written on node:crypto: a few lines do not
 * justify a dependency on the path every operator sign-in takes.
 */
export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

export interface TotpOptions {
  algorithm?: TotpAlgorithm;
  digits?: number;
  /** Seconds per step. */
  period?: number;
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding: how authenticator apps take a secret. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

/** Reads base32 as people type it (any case, spaces, padding); null when it is not base32. */
export function base32Decode(text: string): Buffer | null {
  const clean = text.toUpperCase().replace(/[\s=]/g, '');
  if (!/^[A-Z2-7]*$/.test(clean)) return null;
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    value = (value << 5) | B32.indexOf(ch);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), base32. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The HOTP value of `counter` (RFC 4226 section 5.3: dynamic truncation). */
export function hotp(key: Uint8Array, counter: number, { algorithm = 'sha1', digits = 6 }: TotpOptions = {}): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The step a moment falls in. */
export function totpStep(atMs: number, period = 30): number {
  return Math.floor(atMs / 1000 / period);
}

/** The code an app shows at `atMs`. */
export function totp(key: Uint8Array, atMs: number, opts: TotpOptions = {}): string {
  return hotp(key, totpStep(atMs, opts.period), opts);
}

/**
 * Which step `code` is valid for at `atMs`, allowing one step either side (a phone's clock and a
 * person's typing lag), or null. The caller refuses a step at or before the last one accepted, so
 * a code seen over someone's shoulder cannot be used again.
 */
export function verifyTotp(secretBase32: string, code: string, atMs: number, opts: TotpOptions = {}): number | null {
  const key = base32Decode(secretBase32);
  if (!key || key.length === 0) return null;
  const digits = opts.digits ?? 6;
  if (!new RegExp(`^\\d{${digits}}$`).test(code)) return null;
  const now = totpStep(atMs, opts.period);
  let found: number | null = null;
  for (const step of [now - 1, now, now + 1]) {
    const expected = Buffer.from(hotp(key, step, opts));
    // Every candidate is compared (no early return), in constant time.
    if (timingSafeEqual(expected, Buffer.from(code)) && found === null) found = step;
  }
  return found;
}

/** The otpauth:// link authenticator apps read from a QR code. */
export function totpUri(secretBase32: string, account: string, issuer: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  return `otpauth://totp/${label}?secret=${secretBase32}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=30`;
}
