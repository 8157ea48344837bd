import type { Catalog, Category, CmsPage, StoreDetails } from '@app/contracts';
import { categoryFooterLabel } from '@app/contracts/client';
import { ChevronDown, Mail, MapPin, Phone } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { NEWSLETTER_EMBED_PATH } from '../../lib/newsletter-embed';
import { titleCase } from '../../lib/title-case';
import { NewsletterForm } from './newsletter-form';

export const ADDRESS_PLACEHOLDER = 'Company Address Goes Here';
export const PHONE_PLACEHOLDER = '123-456-7890';
export const EMAIL_PLACEHOLDER = '{email}';
/** At most ten categories, five a column. */
const FOOTER_CATEGORIES = 10;

export function footerCategories(catalogs: Catalog[]): Category[] {
  const seen = new Set<string>();
  const out: Category[] = [];
  for (const c of catalogs.flatMap((x) => x.categoryList)) {
    if (seen.has(c.productCategoryId)) continue;
    seen.add(c.productCategoryId);
    out.push(c);
    if (out.length === FOOTER_CATEGORIES) break;
  }
  return out;
}

function addressLine(store: StoreDetails): string | null {
  const a = store.companyAddress;
  const parts = [a.address1, a.address2, [a.city, a.postalCode].filter(Boolean).join(' '), a.countryGeoId].filter(
    (p) => p && String(p).trim(),
  );
  return parts.length ? parts.join(', ') : null;
}

function phoneLine(store: StoreDetails): string | null {
  const c = store.companyContact;
  if (!c.contactNumber) return null;
  return [c.countryCode, c.areaCode ? `(${c.areaCode})` : null, c.contactNumber].filter(Boolean).join(' ');
}

const heading = 'text-sm font-semibold tracking-wide text-white uppercase';
const link = 'text-sm text-white/75 hover:text-white hover:underline';

function CategoryColumn({ items, testId }: { items: Category[]; testId: string }) {
  return (
    <ul className="space-y-3" data-testid={testId}>
      {items.map((c) => (
        <li key={c.productCategoryId}>
          <Link to={`/categories/${c.productCategoryId}`} className={link}>
            {categoryFooterLabel(c)}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * A footer section: collapsed behind its heading on a phone, always open from md up (app.css,
 * `.footer-section`). <details> needs no script, so it works before and without hydration.
 */
function Section({
  title,
  className = '',
  testId,
  children,
}: {
  title: string;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <details className={`footer-section group border-t border-white/15 md:border-0 ${className}`} data-testid={testId}>
      <summary className="flex h-14 cursor-pointer list-none items-center justify-between md:mb-4 md:h-auto md:cursor-default [&::-webkit-details-marker]:hidden">
        <h2 className={heading}>{title}</h2>
        <ChevronDown
          aria-hidden
          className="size-4 text-white/70 transition-transform group-open:rotate-180 md:hidden"
        />
      </summary>
      <div className="pb-5 md:pb-0">{children}</div>
    </details>
  );
}

function SocialIcons() {
  // Four icons without links: shown, not clickable.
  const icons: Array<[string, string]> = [
    ['Facebook', 'M14 8h2.5V4.5H14c-2.5 0-4 1.6-4 4V11H7.5v3.5H10V21h3.5v-6.5H16l.5-3.5h-3V8.6c0-.4.2-.6.5-.6z'],
    [
      'Instagram',
      'M8 3h8a5 5 0 015 5v8a5 5 0 01-5 5H8a5 5 0 01-5-5V8a5 5 0 015-5zm4 5a4 4 0 100 8 4 4 0 000-8zm5.2-1.7a1 1 0 100 2 1 1 0 000-2z',
    ],
    ['X', 'M4 4h4.5l4 5.6L17 4h3l-6.1 7.2L21 20h-4.5l-4.4-6.1L7 20H4l6.6-7.7z'],
    [
      'YouTube',
      'M21.6 7.2a2.5 2.5 0 00-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4a2.5 2.5 0 00-1.8 1.8C2 8.8 2 12 2 12s0 3.2.4 4.8a2.5 2.5 0 001.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 001.8-1.8c.4-1.6.4-4.8.4-4.8s0-3.2-.4-4.8zM10 15V9l5.2 3z',
    ],
  ];
  return (
    <div className="flex gap-3" data-testid="social-icons">
      {icons.map(([name, d]) => (
        <span
          key={name}
          role="img"
          aria-label={name}
          className="flex size-9 items-center justify-center rounded-full bg-white/10 text-white/85"
        >
          <svg viewBox="0 0 24 24" className="size-4" fill="currentColor" aria-hidden>
            <path d={d} />
          </svg>
        </span>
      ))}
    </div>
  );
}

function Subscribe({ store }: { store: StoreDetails }) {
  if (store.newsLetter.iframe) {
    return (
      <iframe
        title="Newsletter signup"
        sandbox="allow-forms allow-popups"
        src={NEWSLETTER_EMBED_PATH}
        // Made when the footer comes near the screen, not as the page loads (newsletter-embed.tsx).
        loading="lazy"
        // A frame cannot grow to its content (the sandbox runs no script): tall enough for a label
        // above an input and its button (about 66 px) with room for the focus ring.
        className="h-20 w-full border-0"
        data-testid="newsletter-embed"
      />
    );
  }
  return (
    <NewsletterForm className="space-y-2">
      <p className="text-sm text-white/75">Get new arrivals, offers and tips in your inbox. Unsubscribe at any time.</p>
      <div className="flex flex-wrap gap-2">
        <label htmlFor="footer-email" className="sr-only">
          Email address
        </label>
        <input
          id="footer-email"
          type="email"
          name="email"
          placeholder="Email address"
          autoComplete="email"
          className="h-10 min-w-[12rem] flex-1 rounded-md border border-white/20 bg-white px-3 text-sm text-slate-900 placeholder:text-slate-500"
        />
        <button
          type="submit"
          className="h-10 shrink-0 rounded-md bg-action px-4 text-sm font-semibold text-white hover:opacity-90"
        >
          Subscribe
        </button>
      </div>
    </NewsletterForm>
  );
}

/** Footer of the storefront's route rules. DEFAULT and ONE share the data and differ in arrangement. */
export function Footer({ store, catalogs, pages }: { store: StoreDetails; catalogs: Catalog[]; pages: CmsPage[] }) {
  if (store.template !== 'DEFAULT' && store.template !== 'ONE') return null;
  const cats = footerCategories(catalogs);
  const bottom = pages.filter((p) => p.pageLinks.includes('BOTTOM'));
  const footerLinks = pages.filter((p) => p.pageLinks.includes('FOOTER'));
  const address = addressLine(store);
  const phone = phoneLine(store);
  const email = store.emailAddress || EMAIL_PLACEHOLDER;
  const one = store.template === 'ONE';

  const name = store.companyName || store.storeName;
  const contact = (
    <div className="space-y-3 text-sm text-white/75" data-testid="company-contact">
      <p className="flex gap-2">
        <MapPin aria-hidden className="mt-0.5 size-4 shrink-0" />
        <span data-testid="company-address">{address ?? ADDRESS_PLACEHOLDER}</span>
      </p>
      <p className="flex gap-2">
        <Phone aria-hidden className="mt-0.5 size-4 shrink-0" />
        <span data-testid="company-phone">{phone ?? PHONE_PLACEHOLDER}</span>
      </p>
      <p className="flex gap-2">
        <Mail aria-hidden className="mt-0.5 size-4 shrink-0" />
        <span data-testid="company-email" className="break-all">
          {email}
        </span>
      </p>
    </div>
  );
  const contactSeller = (
    <Link
      to="/contact"
      className="inline-flex h-10 items-center rounded-md bg-action px-5 text-sm font-semibold text-white hover:opacity-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
    >
      Contact Seller
    </Link>
  );
  const subscribe = (
    <div className="space-y-4">
      <h2 className={heading}>{one ? 'Stay in touch' : 'Subscribe'}</h2>
      <Subscribe store={store} />
      <SocialIcons />
    </div>
  );

  // Dawn's footer: the company first, then the link lists, then the newsletter; on a phone the link
  // lists fold away so the footer is a few rows, not a long page of links.
  return (
    <footer className="bg-dark text-white" data-testid="footer" data-template={store.template}>
      <div className="mx-auto max-w-7xl px-4 py-10 md:py-14">
        <div className="grid gap-8 md:grid-cols-12 md:gap-x-8 md:gap-y-10">
          <div className="space-y-5 md:col-span-12 lg:col-span-3">
            {/* The company's name once here; the copyright strip below names it again by rule. */}
            <h2 className="text-lg font-semibold text-white">{name}</h2>
            {one && subscribe}
            {contact}
            {!one && contactSeller}
          </div>
          <div className="md:col-span-12 md:grid md:grid-cols-9 md:gap-8 lg:col-span-9">
            <Section title="Browse categories" className="md:col-span-4">
              <div className="grid grid-cols-2 gap-x-6 gap-y-3">
                <CategoryColumn items={cats.slice(0, 5)} testId="footer-categories-1" />
                <CategoryColumn items={cats.slice(5, 10)} testId="footer-categories-2" />
              </div>
            </Section>
            <Section title="Quick Links" className="md:col-span-2">
              <CategoryColumn items={cats} testId="footer-quick-links" />
            </Section>
            <div className="md:col-span-3 md:space-y-8">
              {bottom.length > 0 && (
                <Section title="Learn More" testId="footer-learn-more">
                  <ul className="space-y-3">
                    {bottom.map((p) => (
                      <li key={p.id}>
                        <Link to={`/page/details/${p.pageUrl}`} className={link}>
                          {titleCase(p.pageTitle)}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </Section>
              )}
              <div className="border-t border-white/15 pt-6 md:border-0 md:pt-0">{one ? contactSeller : subscribe}</div>
            </div>
          </div>
        </div>
        <nav
          aria-label="Legal"
          className="mt-10 flex flex-wrap gap-x-6 gap-y-2 border-t border-white/15 pt-6"
          data-testid="footer-bottom-links"
        >
          {footerLinks.map((p) => (
            <Link key={p.id} to={`/page/details/${p.pageUrl}`} className={link}>
              {p.pageTitle}
            </Link>
          ))}
        </nav>
      </div>
    </footer>
  );
}

export function CopyrightStrip({ companyName, platformName }: { companyName: string; platformName: string }) {
  return (
    <div className="bg-black/90 text-white/75" data-testid="copyright">
      <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-1 px-4 py-3 text-xs sm:flex-row">
        <p>
          All Rights Reserved 2023 · <span className="text-white">{companyName}</span>
        </p>
        <p>
          Powered by <span className="font-semibold text-white">{platformName}</span>
        </p>
      </div>
    </div>
  );
}
