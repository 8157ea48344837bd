import type { SeedPage } from './types';

interface PageFacts {
  prefix: string;
  storeName: string;
  email: string;
  freeShippingOver: number;
  returnDays: number;
  story: string;
  /** Store-specific guides, listed in the category bar's More tab. */
  guides: readonly { slug: string; title: string; body: string }[];
}

/**
 * The content pages every demo store carries. Each link flag (TOP, MENU, BOTTOM, FOOTER) is used,
 * and one BOTTOM title is stored in lower case so the footer's title-casing is visible.
 */
export function standardPages(f: PageFacts): SeedPage[] {
  const id = (n: number) => `${f.prefix}-PAGE-${String(n).padStart(2, '0')}`;
  return [
    {
      id: id(1),
      title: 'About Us',
      url: 'about-us',
      links: ['TOP', 'BOTTOM'],
      content: `<h2>Our story</h2><p>${f.story}</p><p>Every order is packed by our own team, and every question reaches a person who knows the products. Write to us at <a href="mailto:${f.email}">${f.email}</a>.</p>`,
    },
    {
      id: id(2),
      title: 'shipping and returns',
      url: 'shipping-and-returns',
      links: ['BOTTOM'],
      content: `<h2>Shipping</h2><p>Orders placed before 2 pm ship the same working day. Standard delivery takes three to five working days; shipping is free on orders over $${f.freeShippingOver}.</p><h2>Returns</h2><p>Changed your mind? Send unused items back within ${f.returnDays} days for a full refund. Start a return from your order history; we email a prepaid label.</p><ul><li>Items must be unused and in their original packaging.</li><li>Refunds reach your card within five working days of the item arriving back.</li></ul>`,
    },
    {
      id: id(3),
      title: 'Gift Cards',
      url: 'gift-cards',
      links: ['TOP', 'MENU'],
      content: `<h2>Give something they will use</h2><p>${f.storeName} gift cards come in any amount from $10 to $500, arrive by email within minutes and never expire.</p>`,
    },
    ...f.guides.map((g, i) => ({
      id: id(4 + i),
      title: g.title,
      url: g.slug,
      links: ['MENU'] as const,
      content: g.body,
    })),
    {
      id: id(10),
      title: 'Privacy Policy',
      url: 'privacy-policy',
      links: ['FOOTER'],
      content: `<h2>What we keep</h2><p>We keep what we need to deliver your orders: your name, addresses, email and order history. Card numbers never reach our servers; our payment provider holds them.</p><h2>What we never do</h2><p>We do not sell your data. Write to <a href="mailto:${f.email}">${f.email}</a> to receive or erase what we hold about you.</p>`,
    },
    {
      id: id(11),
      title: 'Terms of Service',
      url: 'terms-of-service',
      links: ['FOOTER'],
      content: `<h2>Orders</h2><p>An order is accepted when we email its confirmation. Prices include the discounts shown at checkout; taxes and shipping are added before you pay.</p><h2>Warranty</h2><p>Every product carries its maker's warranty. We handle the claim for you: write to <a href="mailto:${f.email}">${f.email}</a>.</p>`,
    },
  ];
}
