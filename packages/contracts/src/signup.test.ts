import { describe, expect, it } from 'vitest';
import { normaliseSubdomain, RESERVED_SUBDOMAINS, subdomainProblem, suggestSubdomain } from './signup';
import { signupRequestSchema } from './signup-schemas';

// The subdomain rules the sign-up page checks as the merchant types and the server checks again.

describe('subdomain rules', () => {
  it('accepts one DNS label of lower-case letters, digits and single hyphens, 3 to 40 long', () => {
    for (const ok of ['abc', 'acme-lamps', 'shop24', '9lives', 'a'.repeat(40)])
      expect(subdomainProblem(ok), ok).toBeNull();
  });

  it('refuses other characters, edges, doubled hyphens (punycode) and lengths', () => {
    for (const bad of [
      'ab',
      'a'.repeat(41),
      'Acme',
      'acme_lamps',
      'acme.lamps',
      '-acme',
      'acme-',
      'xn--80ak6aa92e',
      'a--b',
      'café',
      '',
      'a b',
    ])
      expect(subdomainProblem(bad), bad).toBe('invalid');
  });

  it('keeps the platform’s own names', () => {
    for (const word of ['www', 'platform', 'admin', 'api', 'mail', 'operator', 'support', 'localhost'])
      expect(subdomainProblem(word), word).toBe('reserved');
    // Every reserved word would otherwise pass the character rules: the list is what refuses it.
    for (const word of RESERVED_SUBDOMAINS) if (word.length >= 3) expect(subdomainProblem(word)).toBe('reserved');
  });

  it('normalises what is typed and suggests one from a store name', () => {
    expect(normaliseSubdomain('  Acme-Lamps ')).toBe('acme-lamps');
    expect(suggestSubdomain('Acme Lamps & Co.')).toBe('acme-lamps-co');
    expect(suggestSubdomain('Crème Brûlée')).toBe('creme-brulee');
    expect(subdomainProblem(suggestSubdomain('Sunny Candles'))).toBeNull();
  });

  it('holds the sign-up form to the same rules', () => {
    const form = {
      storeName: 'Acme',
      subdomain: ' ACME-Lamps ',
      email: 'Owner@Example.com',
      password: 'bright-lamps-2026',
    };
    const ok = signupRequestSchema.safeParse(form);
    expect(ok.success && ok.data).toMatchObject({
      subdomain: 'acme-lamps',
      email: 'owner@example.com',
      template: 'DEFAULT',
      starter: 'empty',
    });
    const reserved = signupRequestSchema.safeParse({ ...form, subdomain: 'www' });
    expect(reserved.success).toBe(false);
    expect(signupRequestSchema.safeParse({ ...form, role: 'admin' }).success).toBe(false);
    expect(signupRequestSchema.safeParse({ ...form, template: 'OTHER' }).success).toBe(false);
  });
});
