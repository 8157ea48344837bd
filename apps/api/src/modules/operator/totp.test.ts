import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, newTotpSecret, totp, totpStep, verifyTotp } from './totp';

// RFC 6238 appendix B: the seeds are ASCII "1234567890" repeated to the hash's key length, 8 digits.
const SEEDS = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};
const VECTORS: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(VECTORS)('at %i s gives the RFC vectors for SHA-1, SHA-256 and SHA-512', (seconds, s1, s256, s512) => {
    expect(totp(SEEDS.sha1, seconds * 1000, { digits: 8 })).toBe(s1);
    expect(totp(SEEDS.sha256, seconds * 1000, { digits: 8, algorithm: 'sha256' })).toBe(s256);
    expect(totp(SEEDS.sha512, seconds * 1000, { digits: 8, algorithm: 'sha512' })).toBe(s512);
  });

  it('gives the RFC 4226 HOTP values for counters 0 to 9', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, i) => hotp(SEEDS.sha1, i))).toEqual(expected);
  });

  it('reads and writes base32 as authenticator apps do', () => {
    expect(base32Encode(Buffer.from('12345678901234567890'))).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('gezd gnbv gy3t qojq gezd gnbv gy3t qojq')?.toString()).toBe('12345678901234567890');
    expect(base32Decode('not base32!')).toBeNull();
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
  });

  it('accepts the code of the step before, now and after, and names the step; nothing else', () => {
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    const at = 1_700_000_000_000;
    const key = base32Decode(secret) as Buffer;
    const step = totpStep(at);
    expect(verifyTotp(secret, totp(key, at), at)).toBe(step);
    expect(verifyTotp(secret, totp(key, at - 30_000), at)).toBe(step - 1);
    expect(verifyTotp(secret, totp(key, at + 30_000), at)).toBe(step + 1);
    expect(verifyTotp(secret, totp(key, at - 60_000), at)).toBeNull();
    expect(verifyTotp(secret, totp(key, at + 60_000), at)).toBeNull();
    expect(verifyTotp(secret, '12345', at)).toBeNull();
    expect(verifyTotp(secret, 'abcdef', at)).toBeNull();
  });
});
