import sanitizeHtml from 'sanitize-html';

/** HTML written by store owners (CMS pages) is cleaned before any shopper sees it. */
export function sanitizeCmsHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags.filter((t) => t !== 'iframe'), 'img', 'figure', 'figcaption'],
    allowedAttributes: {
      a: ['href', 'title', 'target', 'rel'],
      img: ['src', 'alt', 'width', 'height', 'loading'],
      '*': ['id'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowProtocolRelative: false,
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
