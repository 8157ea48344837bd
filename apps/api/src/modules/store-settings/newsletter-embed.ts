import { publicHttpsUrl } from '@app/contracts';
import sanitizeHtml from 'sanitize-html';

const NEVER = new Set([
  'script',
  'style',
  'object',
  'embed',
  'link',
  'meta',
  'base',
  'svg',
  'math',
  'frame',
  'frameset',
]);

/**
 * Why a newsletter embed is refused, or null when it is one `<iframe>` or one `<form>` whose
 * address is https on a public host. The storefront sanitises it again and renders it
 * in a sandboxed frame; this check tells the owner at once instead of silently dropping parts.
 * The server never fetches the address.
 */
export function newsletterEmbedProblem(html: string): string | null {
  const top: { name: string; attribs: Record<string, string> }[] = [];
  let depth = 0;
  let forbidden: string | null = null;
  let handler = false;
  sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    onOpenTag(name, attribs) {
      if (depth === 0) top.push({ name, attribs });
      depth++;
      if (NEVER.has(name)) forbidden ??= name;
      if (Object.keys(attribs).some((a) => a.toLowerCase().startsWith('on'))) handler = true;
    },
    onCloseTag() {
      depth--;
    },
  });
  if (forbidden) return `remove the <${forbidden}>: only an <iframe> or a <form> is allowed, without scripts`;
  if (handler) return 'remove the on... attributes: scripts do not run in the embed';
  if (top.length !== 1) return 'paste one <iframe> or one <form>, nothing around it';
  const [el] = top;
  if (!el || (el.name !== 'iframe' && el.name !== 'form'))
    return 'paste an <iframe> or a <form> from your newsletter provider';
  const address = el.name === 'iframe' ? el.attribs.src : el.attribs.action;
  const attr = el.name === 'iframe' ? 'src' : 'action';
  if (!address || !publicHttpsUrl(address)) return `the ${el.name}'s ${attr} must be an https address on a public site`;
  return null;
}
