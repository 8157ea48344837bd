/**
 * A strict XML 1.0 well-formedness check with namespace prefixes, for the tests and the bench (no
 * XML parser is among the dependencies, and the feed needs no more than this): one root element,
 * every tag closed in order, attributes quoted and unique, only the five named entities and
 * character references, no character XML forbids, every prefix declared. Returns the element tree.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The element's own text, entities decoded (children's text not included). */
  text: string;
}

const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?$/;
const BAD_CHAR = /[^\t\n\r\u{20}-\u{D7FF}\u{E000}-\u{FFFD}\u{10000}-\u{10FFFF}]/u;
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([0-9A-Fa-f]{1,6}));/y;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export class XmlError extends Error {}

function decode(raw: string, at: number): string {
  if (raw.includes('<')) throw new XmlError(`"<" in text or attribute near ${at}`);
  let out = '';
  for (let i = 0; i < raw.length; ) {
    const c = raw[i] as string;
    if (c !== '&') {
      out += c;
      i++;
      continue;
    }
    ENTITY.lastIndex = i;
    const m = ENTITY.exec(raw);
    if (!m) throw new XmlError(`bare "&" or unknown entity near ${at + i}: ${raw.slice(i, i + 12)}`);
    const cp = m[1] ? null : Number.parseInt(m[2] ?? m[3] ?? '', m[2] ? 10 : 16);
    if (cp !== null && (cp > 0x10ffff || BAD_CHAR.test(String.fromCodePoint(cp)))) {
      throw new XmlError(`character reference to a forbidden character near ${at + i}`);
    }
    out += m[1] ? NAMED[m[1]] : String.fromCodePoint(cp as number);
    i += m[0].length;
  }
  return out;
}

export function parseXml(xml: string): XmlElement {
  const bad = BAD_CHAR.exec(xml);
  if (bad) throw new XmlError(`forbidden character U+${bad[0].codePointAt(0)?.toString(16)} at ${bad.index}`);
  let i = 0;
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) throw new XmlError('unclosed XML declaration');
    i = end + 2;
  }
  const stack: { el: XmlElement; ns: Map<string, string> }[] = [];
  let root: XmlElement | null = null;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt < 0 ? xml.length : lt);
    const top = stack[stack.length - 1];
    if (text) {
      if (!top) {
        if (text.trim()) throw new XmlError(`text outside the root element at ${i}`);
      } else top.el.text += decode(text, i);
    }
    if (lt < 0) break;
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      if (end < 0) throw new XmlError('unclosed comment');
      i = end + 3;
      continue;
    }
    if (xml.startsWith('<![CDATA[', lt)) {
      if (!top) throw new XmlError('CDATA outside the root element');
      const end = xml.indexOf(']]>', lt);
      if (end < 0) throw new XmlError('unclosed CDATA');
      top.el.text += xml.slice(lt + 9, end);
      i = end + 3;
      continue;
    }
    if (xml.startsWith('<?', lt)) {
      const end = xml.indexOf('?>', lt);
      if (end < 0) throw new XmlError('unclosed processing instruction');
      i = end + 2;
      continue;
    }
    if (xml.startsWith('<!', lt)) throw new XmlError(`declarations are not expected at ${lt}`);
    const gt = xml.indexOf('>', lt);
    if (gt < 0) throw new XmlError(`unclosed tag at ${lt}`);
    const tag = xml.slice(lt + 1, gt);
    i = gt + 1;
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      const open = stack.pop();
      if (!open || open.el.name !== name) {
        throw new XmlError(`</${name}> at ${lt} closes <${open?.el.name ?? 'nothing'}>`);
      }
      continue;
    }
    const selfClosing = tag.endsWith('/');
    const body = selfClosing ? tag.slice(0, -1) : tag;
    const nameMatch = /^[^\s/>]+/.exec(body);
    const name = nameMatch?.[0] ?? '';
    if (!NAME.test(name)) throw new XmlError(`bad element name "${name}" at ${lt}`);
    const attrs: Record<string, string> = {};
    let rest = body.slice(name.length);
    const attr = /^\s+([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/;
    for (let m = attr.exec(rest); m; m = attr.exec(rest)) {
      const [whole, aName, , dq, sq] = m as unknown as [string, string, string, string | undefined, string | undefined];
      if (!NAME.test(aName)) throw new XmlError(`bad attribute name "${aName}" at ${lt}`);
      if (aName in attrs) throw new XmlError(`attribute ${aName} twice at ${lt}`);
      attrs[aName] = decode(dq ?? sq ?? '', lt);
      rest = rest.slice(whole.length);
    }
    if (rest.trim()) throw new XmlError(`malformed attributes at ${lt}: ${rest.slice(0, 30)}`);
    const ns = new Map(top?.ns ?? []);
    for (const [k, v] of Object.entries(attrs)) if (k.startsWith('xmlns:')) ns.set(k.slice(6), v);
    for (const n of [name, ...Object.keys(attrs)]) {
      const prefix = n.includes(':') ? n.split(':')[0] : null;
      if (prefix && prefix !== 'xmlns' && prefix !== 'xml' && !ns.has(prefix)) {
        throw new XmlError(`undeclared namespace prefix "${prefix}" at ${lt}`);
      }
    }
    const el: XmlElement = { name, attrs, children: [], text: '' };
    if (top) top.el.children.push(el);
    else if (root) throw new XmlError(`a second root element at ${lt}`);
    else root = el;
    if (!selfClosing) stack.push({ el, ns });
  }
  if (stack.length) throw new XmlError(`<${stack[stack.length - 1]?.el.name}> is never closed`);
  if (!root) throw new XmlError('no root element');
  return root;
}

/** The `<item>` elements of an RSS feed, each as a map of its children's names to their text. */
export function feedItems(xml: string): Record<string, string>[] {
  const rss = parseXml(xml);
  const channel = rss.children.find((c) => c.name === 'channel');
  return (channel?.children ?? [])
    .filter((c) => c.name === 'item')
    .map((item) => Object.fromEntries(item.children.map((c) => [c.name, c.text])));
}
