import { describe, expect, it } from 'vitest';
import { startupBanner } from './startup-banner';

const stores = [
  { storeName: 'Brightside Lighting', hosts: ['lighting.shop.test', 'lighting.localhost'] },
  { storeName: 'Greenleaf Garden', hosts: ['garden.localhost'] },
];
const base = { PORT: 3000, SMTP_URL: undefined, DATA_DIR: '/srv/data', NODE_ENV: 'development' as const };

describe('the start-up banner', () => {
  it('lists each store at its browser-ready host with the port, the demo logins and the dev mailbox', () => {
    const text = startupBanner(stores, base);
    expect(text).toContain('http://lighting.localhost:3000');
    expect(text).toContain('http://garden.localhost:3000');
    expect(text).toContain('README.md, section "Demo stores"');
    expect(text).toContain('/srv/data/outbox');
    expect(text).toContain('http://localhost:3000/dev/mailbox');
  });

  it('names the first stores and counts the rest on a platform of thousands, not a line per store', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      storeName: `Store ${i + 1}`,
      hosts: [`s${i + 1}.localhost`],
    }));
    const text = startupBanner(many, base, 10_000);
    expect(text).toContain('Stores: 10,000, the first 10:');
    expect(text).toContain('http://s10.localhost:3000');
    expect(text).not.toContain('http://s11.localhost:3000');
    expect(text).toContain('... and 9,990 more');
    expect(text.split('\n').length).toBeLessThan(20);
  });

  it("names the SMTP server's host, never its credentials", () => {
    const text = startupBanner(stores, { ...base, SMTP_URL: 'smtps://user:s3cret@smtp.example.com:465' });
    expect(text).toContain('smtp.example.com:465');
    expect(text).not.toContain('s3cret');
    expect(text).not.toContain('user:');
    expect(text).not.toContain('/dev/mailbox');
  });
});
