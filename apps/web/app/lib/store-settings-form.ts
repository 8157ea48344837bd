import { hexToRgb, parseRgb, STORE_DETAIL_TEXT_FIELDS } from '@app/contracts/client';

/**
 * The theme and store details forms post plain fields named by their payload path
 * (`themeColors.action`, `companyAddress.city`, `seoMeta.2.title`), so they work without
 * JavaScript; these turn a post into the API's payload, and keep what was typed for an error.
 */

/** What the owner typed, by field name, to put back in the form when the save is refused. */
export function typedValues(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form) if (typeof v === 'string' && !k.startsWith('_')) out[k] = v;
  return out;
}

const THEME_COLOR_KEYS = ['primary', 'secondary', 'banner', 'action'] as const;

/**
 * Each colour has its "R, G, B" text and a colour picker (`pick.themeColors.x`). With JavaScript
 * they follow each other; without it the picker counts when the text was left as it was
 * (`was.themeColors.x`), so either can be used to change a colour.
 */
export function themePayload(form: FormData, useDefaults?: Record<string, string>) {
  const text = (name: string) => String(form.get(name) ?? '');
  const themeColors: Record<string, string> = {};
  for (const key of THEME_COLOR_KEYS) {
    const name = `themeColors.${key}`;
    let value = text(name).trim();
    const picked = hexToRgb(text(`pick.${name}`));
    if (picked && value === text(`was.${name}`).trim()) {
      const current = parseRgb(value);
      if (!current || current.join() !== picked.join()) value = picked.join(', ');
    }
    themeColors[key] = useDefaults?.[key] ?? value;
  }
  return { template: text('template'), theme: text('theme').trim() || undefined, themeColors };
}

/** Sets `value` at a dotted path, creating objects (and arrays for numeric parts) on the way. */
function setPath(target: Record<string, unknown>, path: string[], value: unknown) {
  let node: Record<string, unknown> = target;
  path.forEach((part, i) => {
    if (i === path.length - 1) {
      node[part] = value;
      return;
    }
    const nextIsIndex = /^\d+$/.test(path[i + 1] ?? '');
    node[part] ??= nextIsIndex ? [] : {};
    node = node[part] as Record<string, unknown>;
  });
}

const SEO_PARTS = ['route', 'title', 'keywords', 'description'] as const;

/**
 * The details payload of a post, and for each SEO entry of the payload the row of the form it
 * came from (blank rows are left out, so the API's `seoMeta.1.title` may be the form's row 3).
 */
export function detailsPayload(form: FormData): { payload: Record<string, unknown>; seoRows: number[] } {
  const payload: Record<string, unknown> = {};
  for (const name of STORE_DETAIL_TEXT_FIELDS) {
    const raw = String(form.get(name) ?? '').trim();
    setPath(payload, name.split('.'), raw === '' ? null : raw);
  }
  payload.contactPage = form.get('contactPage') === 'Y' ? 'Y' : 'N';
  const rows = new Set<number>();
  for (const key of form.keys()) {
    const m = /^seoMeta\.(\d{1,2})\.(route|title|keywords|description)$/.exec(key);
    if (m) rows.add(Number(m[1]));
  }
  const seoMeta: Record<string, string>[] = [];
  const seoRows: number[] = [];
  for (const row of [...rows].sort((a, b) => a - b)) {
    const entry = Object.fromEntries(SEO_PARTS.map((p) => [p, String(form.get(`seoMeta.${row}.${p}`) ?? '').trim()]));
    if (SEO_PARTS.every((p) => entry[p] === '')) continue;
    seoMeta.push(entry);
    seoRows.push(row);
  }
  payload.seoMeta = seoMeta;
  return { payload, seoRows };
}

/** The API names SEO fields by payload index; the form by its row. */
export function seoErrorsToRows(fieldErrors: Record<string, string | undefined>, seoRows: number[]) {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fieldErrors)) {
    if (!v) continue;
    const m = /^seoMeta\.(\d+)\.(.+)$/.exec(k);
    out[m ? `seoMeta.${seoRows[Number(m[1])] ?? m[1]}.${m[2]}` : k] = v;
  }
  return out;
}
