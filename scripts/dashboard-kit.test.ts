import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every dashboard page is built from the kit (apps/web/app/components/ui, decision 086): a page that
 * writes its own `<input>`, `<select>`, `<textarea>`, `<table>` or `<button>` styles it on its own, and
 * the defects the kit fixed once (Enter that does nothing, errors that stay red, a destructive click
 * that acts at once) come back one copy at a time. This test is the rule's keeper. It reads the
 * dashboard's routes and components and fails on a raw form control or table, naming the file and the
 * element. A hidden input is no control (the kit has nothing to add to it). A few controls have no kit
 * part on purpose: they are listed in ALLOWED with the reason, by file and count, so a new one is seen.
 */
const root = join(import.meta.dirname, '..');
const WEB = join(root, 'apps/web/app');
const DIRS = ['routes/manage-store', 'components/manage-store'];

/** `file: { tag: [count, why] }`: raw elements a file may keep, and why the kit has no part for them. */
export const ALLOWED: Record<string, Partial<Record<RawTag, [number, string]>>> = {
  'components/manage-store/cms-rich-text.tsx': {
    textarea: [
      1,
      'the page body without JavaScript: an HTML text area the rich-text editor replaces once hydrated, sharing its label and error',
    ],
  },
  'components/manage-store/cms-tiptap-editor.tsx': {
    input: [1, "the link address typed in the rich-text toolbar's own popover"],
    button: [2, 'the rich-text toolbar: toggle buttons with aria-pressed in a role=toolbar, and its popover actions'],
  },
  'components/manage-store/dashboard-nav.tsx': {
    button: [
      1,
      "the dashboard's own menu button on a phone (opens the sidebar), part of the frame's look (decision 085)",
    ],
  },
  'components/manage-store/frame.tsx': {
    button: [1, "Sign out in the frame's dark top bar, drawn by the frame (decision 085), not a page's control"],
  },
  'components/manage-store/media-field.tsx': {
    input: [2, 'a file picker (uploads at once) and the library as pictures to pick (a radio drawn as a thumbnail)'],
  },
  'components/manage-store/product-editor-media.tsx': {
    input: [2, 'a file picker with previews, and library pictures to tick (a checkbox drawn on a thumbnail)'],
  },
  'components/manage-store/product-editor-variants.tsx': {
    input: [
      7,
      "the variant grid and its options: cells edited in place that arrows and Enter move between, a value's label and swatch colour inline, and the rows' hidden keys; the kit's text field draws a label and a row of its own per field. Styled with the kit's classes",
    ],
    table: [1, "the variant grid: a table of inputs, which the kit's DataTable (rows of text and links) does not draw"],
    select: [1, "a variant's picture, one cell of the grid (kit-select class, no label row of its own)"],
  },
  'components/manage-store/product-editor-more.tsx': { input: [1, 'a file picker (the download)'] },
  'components/manage-store/product-editor-rows.tsx': {
    input: [1, 'the category list filter: a type-ahead with no name that posts nothing, so no form field'],
  },
  'components/manage-store/store-access-section.tsx': {
    input: [1, 'the access-mode radio as a card with an icon and a sentence per mode; not a plain choice list'],
  },
  'components/manage-store/theme-color-field.tsx': {
    input: [1, "the browser's colour picker beside the kit's text box: the kit has no colour swatch"],
  },
  'routes/manage-store/products_.import.tsx': {
    input: [1, "the CSV file picker (in the kit's Field): the kit has no file input"],
  },

  'routes/manage-store/settings.theme.tsx': {
    input: [1, 'the template radio as a card with a description and a sketch to compare; not a plain choice list'],
  },
};

type RawTag = 'input' | 'select' | 'textarea' | 'table' | 'button' | 'window.confirm';

/** The raw elements of a TSX source: each tag opened with its attributes read to the closing `>`. */
export function rawElements(source: string): RawTag[] {
  const found: RawTag[] = [];
  const open = /<(input|select|textarea|table|button)\b/g;
  for (let m = open.exec(source); m; m = open.exec(source)) {
    // Read the attributes to the tag's end: a `>` inside `{...}` (an arrow function) or a string does
    // not close it.
    let depth = 0;
    let quote = '';
    let i = m.index + m[0].length;
    for (; i < source.length; i++) {
      const c = source[i];
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'" || c === '`') quote = c;
      else if (c === '{') depth++;
      else if (c === '}') depth--;
      else if (c === '>' && depth === 0) break;
    }
    const attributes = source.slice(m.index, i);
    if (m[1] === 'input' && /\btype="hidden"/.test(attributes)) continue;
    found.push(m[1] as RawTag);
  }
  for (const _ of source.matchAll(/\bwindow\.confirm\(/g)) found.push('window.confirm');
  return found;
}

function dashboardFiles(): string[] {
  return DIRS.flatMap((dir) =>
    (readdirSync(join(WEB, dir), { recursive: true }) as string[])
      .filter((f) => f.endsWith('.tsx') && !f.endsWith('.test.tsx'))
      .map((f) => relative(WEB, join(WEB, dir, f))),
  );
}

describe('every dashboard page is built from the kit', () => {
  it('reads the tags a page writes, not a hidden input or an arrow inside a prop', () => {
    expect(
      rawElements('<input type="hidden" name="a" /><input onChange={(e) => set(e.target.value)} name="b" />'),
    ).toEqual(['input']);
    expect(rawElements('<TextField name="a" /><table><button type="submit">Go</button>')).toEqual(['table', 'button']);
    expect(rawElements('if (!window.confirm("Delete?")) return;')).toEqual(['window.confirm']);
  });

  it('finds no raw control, table or confirm beyond the allowed ones', () => {
    const files = dashboardFiles();
    expect(files.length).toBeGreaterThan(40);
    const over: string[] = [];
    for (const file of files) {
      const counts = new Map<RawTag, number>();
      for (const tag of rawElements(readFileSync(join(WEB, file), 'utf8'))) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      for (const [tag, n] of counts) {
        const allowed = ALLOWED[file]?.[tag]?.[0] ?? 0;
        if (n > allowed) over.push(`${file}: ${n} <${tag}> (allowed ${allowed}): use the kit (components/ui)`);
      }
    }
    expect(over).toEqual([]);
  });
});
