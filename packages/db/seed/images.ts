/**
 * Pictures for the demo stores, drawn as SVG and encoded to WebP on first request (the media
 * route stores the result). Nothing is downloaded: the seed works offline and stays small in git.
 */
import { builtStores, hash } from './build';
import { GLYPHS } from './glyphs';
import { textPdf } from './pdf';
import type { Glyph, SeedStore } from './types';

export interface SeedImage {
  body: Buffer;
  contentType: string;
}

const SIZES = { small: 400, medium: 800, detail: 1200 } as const;
const rgb = (s: string) => `rgb(${s})`;

function productCard(glyph: Glyph, finish: string, background: string, size: number): string {
  // A soft studio backdrop and floor shadow: every product picture shares the same framing,
  // so grids line up and nothing shifts when images load.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 200 200">
<defs><radialGradient id="bg" cx="50%" cy="38%" r="75%"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="${background}"/></radialGradient></defs>
<rect width="200" height="200" fill="url(#bg)"/>
<ellipse cx="100" cy="178" rx="58" ry="7" fill="#000" opacity=".08"/>
<g transform="translate(20 14) scale(.8)">${GLYPHS[glyph](finish)}</g>
</svg>`;
}

function bannerArt(store: SeedStore, glyph: Glyph, seed: number): string {
  const c = store.settings.colors;
  const finishes = store.art.finishes;
  const pick = (i: number) => finishes[(seed + i) % finishes.length] as string;
  // The left 55% stays calm so the banner's HTML title and button read well over it.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="640" viewBox="0 0 1600 640">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${rgb(c.banner)}"/><stop offset="1" stop-color="${rgb(c.primary)}"/></linearGradient></defs>
<rect width="1600" height="640" fill="url(#g)"/>
<circle cx="1240" cy="330" r="330" fill="#fff" opacity=".07"/><circle cx="1420" cy="90" r="160" fill="#fff" opacity=".05"/>
<g transform="translate(880 130) scale(1.9)"><circle cx="100" cy="100" r="96" fill="#fff" opacity=".92"/><g transform="translate(22 22) scale(.78)">${GLYPHS[glyph](pick(0))}</g></g>
<g transform="translate(1290 300) scale(1.25)"><circle cx="100" cy="100" r="96" fill="#fff" opacity=".85"/><g transform="translate(22 22) scale(.78)">${GLYPHS[glyph](pick(1))}</g></g>
</svg>`;
}

function logoSvg(store: SeedStore): string {
  const c = store.settings.colors;
  const name = store.storeName;
  const width = 64 + Math.ceil(name.length * 12.5);
  const glyph: Glyph = store.categories[0]?.glyph ?? 'bulb';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="48" viewBox="0 0 ${width} 48" role="img" aria-label="${name}">
<rect x="2" y="2" width="44" height="44" rx="12" fill="${rgb(c.primary)}"/>
<g transform="translate(6 6) scale(.18)">${GLYPHS[glyph]('#ffffff')}</g>
<text x="56" y="31" font-family="ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-size="19" font-weight="700" fill="${rgb(c.banner)}">${name}</text>
</svg>`;
}

async function toWebp(svg: string): Promise<Buffer> {
  // sharp is loaded only when a picture is first drawn, so a server that never needs one never pays.
  const { default: sharp } = await import('sharp');
  return sharp(Buffer.from(svg)).webp({ quality: 82, effort: 4 }).toBuffer();
}

/**
 * Draws the seeded picture a media key names, or null when the key is not one of the seed's.
 * Keys: seed/<tenant>/logo.svg, products/<id>-<small|medium|detail>.webp, categories/<id>.webp,
 * banners/<id>.webp.
 */
export async function renderSeedImage(key: string): Promise<SeedImage | null> {
  const m = /^seed\/([a-z0-9-]+)\/(.+)$/.exec(key);
  if (!m) return null;
  const [, tenantId, rest] = m as unknown as [string, string, string];
  const built = builtStores().find((b) => b.store.tenantId === tenantId);
  if (!built) return null;
  const { store } = built;

  if (rest === 'logo.svg') return { body: Buffer.from(logoSvg(store)), contentType: 'image/svg+xml' };

  const product = /^products\/([a-z0-9-]+)-(small|medium|detail)\.webp$/.exec(rest);
  if (product) {
    const art = built.art.get(product[1] as string);
    if (!art) return null;
    const size = SIZES[product[2] as keyof typeof SIZES];
    return { body: await toWebp(productCard(art.glyph, art.finish, art.background, size)), contentType: 'image/webp' };
  }

  const sheet = /^content\/([a-z0-9-]+)-spec-sheet\.pdf$/.exec(rest);
  if (sheet) {
    const id = (sheet[1] as string).toUpperCase();
    const p = built.products.find((x) => x.productId === id);
    if (!p || !built.specSheets.includes(id)) return null;
    const feats = built.features.filter((f) => f.productId === id);
    const body = textPdf([
      { text: store.storeName, size: 11, gap: 0 },
      { text: p.productName, size: 22, bold: true, gap: 40 },
      { text: `${p.brandName} - SKU ${p.sku}`, size: 12, gap: 24 },
      { text: 'Specifications', size: 14, bold: true, gap: 40 },
      ...feats.map((f) => ({ text: `${f.label}: ${f.value}`, size: 11, gap: 18 })),
      { text: 'About this product', size: 14, bold: true, gap: 36 },
      ...p.description
        .split('\n\n')
        .flatMap((para) => wrap(para, 90))
        .map((text) => ({ text, size: 10, gap: 15 })),
    ]);
    return { body, contentType: 'application/pdf' };
  }

  const category = /^categories\/([a-z0-9_]+)\.webp$/i.exec(rest);
  if (category) {
    const id = (category[1] as string).toUpperCase();
    const sub = store.subcategories.find((s) => s.id === id);
    const cat = store.categories.find((c) => c.id === (sub?.parent ?? id));
    if (!cat) return null;
    const h = hash(id);
    const finish = store.art.finishes[h % store.art.finishes.length] as string;
    const bg = store.art.backgrounds[(h >>> 3) % store.art.backgrounds.length] as string;
    return { body: await toWebp(productCard(cat.glyph, finish, bg, 400)), contentType: 'image/webp' };
  }

  const banner = /^banners\/([a-z0-9-]+)\.webp$/i.exec(rest);
  if (banner) {
    const b = store.banners.find((x) => x.id.toLowerCase() === (banner[1] as string).toLowerCase());
    if (!b) return null;
    const categoryId = b.link.split('/').pop();
    const glyph = store.categories.find((c) => c.id === categoryId)?.glyph ?? 'bulb';
    return { body: await toWebp(bannerArt(store, glyph, hash(b.id))), contentType: 'image/webp' };
  }
  return null;
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}
