import { descriptionParagraphs } from '@app/contracts';
import sanitizeHtml from 'sanitize-html';

/** An image in a page: the store's own media (a path under /media/) or any https address. */
const SAME_STORE_MEDIA = /^\/media\/(?!.*\.\.)[A-Za-z0-9/_.,=~-]+$/;
export function isAllowedCmsImage(src: string | undefined): boolean {
  if (!src) return false;
  return SAME_STORE_MEDIA.test(src) || /^https:\/\/[^/\s]+/i.test(src);
}

/**
 * HTML written by store owners (CMS pages) is cleaned with an allow-list when it is saved and again
 * before any shopper sees it: headings, paragraphs, lists, links, images, tables, quotes and inline
 * emphasis survive; scripts, styles, event handlers, forms, frames and `javascript:` or `data:`
 * addresses never do. Images come from the store's /media/ or from https only.
 */
export function sanitizeCmsHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'p',
      'br',
      'hr',
      'blockquote',
      'pre',
      'code',
      'ul',
      'ol',
      'li',
      'a',
      'strong',
      'b',
      'em',
      'i',
      'u',
      's',
      'sub',
      'sup',
      'small',
      'mark',
      'span',
      'div',
      'section',
      'article',
      'figure',
      'figcaption',
      'img',
      'table',
      'caption',
      'colgroup',
      'col',
      'thead',
      'tbody',
      'tfoot',
      'tr',
      'th',
      'td',
    ],
    allowedAttributes: {
      a: ['href', 'title', 'target', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
      ol: ['start'],
      th: ['colspan', 'rowspan', 'scope'],
      td: ['colspan', 'rowspan'],
      col: ['span'],
      '*': ['id'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['https'] },
    allowProtocolRelative: false,
    // Anything else inside a dropped script or style goes with it, not left as text.
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template'],
    exclusiveFilter: (frame) => frame.tag === 'img' && !isAllowedCmsImage(frame.attribs.src),
    transformTags: {
      a: (tagName, attribs) => ({
        tagName,
        attribs: attribs.target === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
      }),
    },
  });
}

/**
 * A newsletter provider's embed: a signup form or an iframe. No scripts or handlers survive; the
 * storefront also renders it in a sandboxed frame, so even a missed trick cannot reach the page.
 */
export function sanitizeNewsletterEmbed(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['form', 'input', 'button', 'label', 'iframe', 'div', 'span', 'p', 'strong', 'em', 'br'],
    allowedAttributes: {
      form: ['action', 'method', 'target'],
      input: ['type', 'name', 'placeholder', 'required', 'value', 'aria-label', 'id'],
      button: ['type'],
      label: ['for'],
      iframe: ['src', 'width', 'height', 'title', 'loading'],
      '*': ['class'],
    },
    allowedSchemes: ['https'],
    allowedSchemesByTag: { form: ['https'], iframe: ['https'] },
    allowProtocolRelative: false,
  });
}

/**
 * The same parser and serialiser as sanitizeCmsHtml with nothing filtered: what the owner's HTML
 * is, re-written. Where it equals the sanitised form, the allow-list took nothing away.
 */
function reserializeHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    nonTextTags: [],
    allowedSchemesAppliedToAttributes: [],
    allowProtocolRelative: true,
    parseStyleAttributes: false,
  });
}

/**
 * An owner's rich text (a product description) as it is stored (decision 074): as the owner wrote
 * it when the CMS allow-list would keep all of it, otherwise the sanitised form. Re-serialising
 * text the owner wrote turned `&` into `&amp;` (and `>` into `&gt;`), so a CSV export imported back
 * changed every description with an ampersand, and plain-text places showed the entity.
 *
 * Comments, CDATA and processing instructions always take the sanitised form: a browser and this
 * parser read `<![CDATA[` differently, so such text is never kept as written. Idempotent: the
 * stored form of a stored form is itself, so comparing stored forms tells a real change.
 */
export function storedOwnerHtml(html: string): string {
  const clean = sanitizeCmsHtml(html);
  if (clean === html || /<[!?]/.test(html)) return clean;
  return clean === reserializeHtml(html) ? html : clean;
}

/**
 * A product description as the product page shows it (decision 074): stored as the owner wrote it,
 * it is read as HTML (`&amp;` is an ampersand, `<p>` a paragraph) and sanitised here, when it is
 * rendered. One without block tags (the demo catalog's, a spreadsheet's) is paragraphs split at
 * blank lines.
 */
export function productDescriptionHtml(description: string | null): string | null {
  const text = description?.trim();
  if (!text) return null;
  return sanitizeCmsHtml(descriptionParagraphs(text)) || null;
}

/**
 * The description as plain text, for places that take text (structured data, meta): tags dropped,
 * entities read, so `Halden &amp; Co.` is `Halden & Co.` there.
 */
export function productDescriptionText(description: string | null): string | null {
  if (!description?.trim()) return null;
  const text = sanitizeHtml(description.replace(/<\/(p|div|h[1-6]|li|tr|blockquote|pre)>|<br\s*\/?>/gi, '$& '), {
    allowedTags: [],
    allowedAttributes: {},
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template'],
  })
    // sanitize-html reads every entity and writes back only these three.
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text || null;
}
