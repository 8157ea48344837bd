import { describe, expect, it } from 'vitest';
import { AUDIT_TEXT_MAX, auditChanges, isSecretField, REDACTED, secret } from './audit-diff';

describe('audit changes', () => {
  it('an update keeps only the fields whose value changed, with both sides', () => {
    const before = {
      name: 'Desk Lamp',
      price: 4999,
      stock: 3,
      tags: ['a', 'b'],
      updatedAt: new Date('2026-01-01T00:00:00Z'),
    };
    const after = {
      name: 'Desk Lamp',
      price: 3999,
      stock: 3,
      tags: ['a', 'b'],
      updatedAt: new Date('2026-01-01T00:00:00Z'),
    };
    expect(auditChanges(before, after)).toEqual({ price: { before: 4999, after: 3999 } });
  });

  it('compares values, not object identity or key order; a field set to null is a change', () => {
    expect(
      auditChanges({ address: { city: 'Oslo', zip: '0150' } }, { address: { zip: '0150', city: 'Oslo' } }),
    ).toBeNull();
    expect(auditChanges({ phone: '555' }, { phone: null })).toEqual({ phone: { before: '555', after: null } });
    expect(
      auditChanges({ when: new Date('2026-01-01T00:00:00Z') }, { when: new Date('2026-01-02T00:00:00Z') }),
    ).toEqual({
      when: { before: '2026-01-01T00:00:00.000Z', after: '2026-01-02T00:00:00.000Z' },
    });
  });

  it('"after" may hold only the fields written: the others are not changes', () => {
    expect(auditChanges({ name: 'Lamp', price: 10, stock: 2 }, { price: 12 })).toEqual({
      price: { before: 10, after: 12 },
    });
    expect(auditChanges({ name: 'Lamp' }, { name: 'Lamp', note: undefined })).toBeNull();
  });

  it('a create lists the fields given a value; a delete the fields it had; an action alone none', () => {
    expect(auditChanges(null, { name: 'Lamp', brand: null, price: 10 })).toEqual({
      name: { after: 'Lamp' },
      price: { after: 10 },
    });
    expect(auditChanges({ name: 'Lamp', price: 10 }, null)).toEqual({
      name: { before: 'Lamp' },
      price: { before: 10 },
    });
    expect(auditChanges(undefined, undefined)).toEqual({});
  });

  it('masks secrets by field name, at any depth, yet records that they changed', () => {
    const changes = auditChanges(
      { email: 'a@x.test', passwordHash: '$argon2id$old', paypal: { clientId: 'id-1', clientSecret: 'old-secret' } },
      { email: 'a@x.test', passwordHash: '$argon2id$new', paypal: { clientId: 'id-1', clientSecret: 'new-secret' } },
    );
    expect(changes).toEqual({
      passwordHash: { before: REDACTED, after: REDACTED },
      paypal: {
        before: { clientId: 'id-1', clientSecret: REDACTED },
        after: { clientId: 'id-1', clientSecret: REDACTED },
      },
    });
    expect(JSON.stringify(changes)).not.toMatch(/argon2id|old-secret|new-secret/);
    // An unchanged secret is no change, and a secret that was unset shows as unset.
    expect(auditChanges({ apiKey: 'k1' }, { apiKey: 'k1' })).toBeNull();
    expect(auditChanges({ session_token: null }, { session_token: 'tok' })).toEqual({
      session_token: { before: null, after: REDACTED },
    });
    for (const f of [
      'password',
      'password_hash',
      'tokenHash',
      'accessToken',
      'refresh-token',
      'API_KEY',
      'privateKey',
      'cvc',
    ])
      expect(isSecretField(f), f).toBe(true);
    for (const f of ['name', 'email', 'price', 'status']) expect(isSecretField(f), f).toBe(false);
  });

  it('masks a value its writer marked secret, whatever the field is called', () => {
    const changes = auditChanges({ marketplace: secret('tok-old') }, { marketplace: secret('tok-new') });
    expect(changes).toEqual({ marketplace: { before: REDACTED, after: REDACTED } });
    expect(auditChanges({ marketplace: secret('same') }, { marketplace: secret('same') })).toBeNull();
    expect(JSON.stringify(auditChanges(null, { webhook: secret({ url: 'https://x', key: 'k' }) }))).toBe(
      JSON.stringify({ webhook: { after: REDACTED } }),
    );
  });

  it('cuts long texts but still sees a change past the cut', () => {
    const long = 'x'.repeat(AUDIT_TEXT_MAX + 500);
    const changes = auditChanges({ body: long }, { body: `${long}!` });
    expect(changes?.body?.before).toBe(`${'x'.repeat(AUDIT_TEXT_MAX)}… (${AUDIT_TEXT_MAX + 500} characters)`);
    expect(changes?.body?.after).toBe(`${'x'.repeat(AUDIT_TEXT_MAX)}… (${AUDIT_TEXT_MAX + 501} characters)`);
  });
});
