import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, parseSecretsKey } from './secret-box';

describe('secret box', () => {
  const box = createSecretBox(randomBytes(32));

  it('opens what it sealed, and the sealed text does not contain the secret', () => {
    const sealed = box.seal('EOxZ-app-secret-1234', 'payment_configs:lighting:PP_CONFIG');
    expect(sealed).not.toContain('EOxZ');
    expect(sealed).not.toContain('1234');
    expect(box.open(sealed, 'payment_configs:lighting:PP_CONFIG')).toBe('EOxZ-app-secret-1234');
  });

  it('seals the same secret differently each time', () => {
    expect(box.seal('same', 'c')).not.toBe(box.seal('same', 'c'));
  });

  it('refuses a value copied to another store, altered, or sealed under another key', () => {
    const sealed = box.seal('secret', 'payment_configs:lighting:PP_CONFIG');
    expect(box.open(sealed, 'payment_configs:garden:PP_CONFIG')).toBeNull();
    const parts = sealed.split('.');
    parts[4] = `${parts[4]!.slice(0, -2)}AA`;
    expect(box.open(parts.join('.'), 'payment_configs:lighting:PP_CONFIG')).toBeNull();
    expect(createSecretBox(randomBytes(32)).open(sealed, 'payment_configs:lighting:PP_CONFIG')).toBeNull();
    expect(box.open('not sealed', 'x')).toBeNull();
  });

  it('reads SECRETS_KEY as hex or base64 of 32 bytes, and nothing else', () => {
    const key = randomBytes(32);
    expect(parseSecretsKey(key.toString('hex'))?.equals(key)).toBe(true);
    expect(parseSecretsKey(key.toString('base64'))?.equals(key)).toBe(true);
    expect(parseSecretsKey('short')).toBeNull();
    expect(parseSecretsKey(randomBytes(16).toString('hex'))).toBeNull();
  });
});
