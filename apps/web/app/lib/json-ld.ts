/**
 * JSON for a <script type="application/ld+json">: `<` is escaped so a product name such as
 * "</script><script>…" cannot close the element and run as script.
 */
export function jsonLdHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
