import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { schema } from '@app/db';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';

/**
 * Every table has one owning domain, and only the owner's folder writes it (decision 110). Another
 * domain that needs a row changed calls a function exported by the owner's index.ts, so a rule about
 * a table (a price never below zero, a stock movement for every stock change, an audit entry for
 * every edit) lives in one place and is seen by whoever reads that place.
 *
 * This test reads every non-test .ts file under apps/api/src, finds each write to a table (drizzle's
 * `.insert(t)`, `.update(t)`, `.delete(t)`, `insertWhere(t, ...)`, and `INSERT INTO`, `UPDATE`,
 * `DELETE FROM` in templates tagged with sql, an upsert's `INSERT ... ON CONFLICT` included) and fails,
 * naming the file, the line, the table and its owner, for every write outside the owner's folder.
 */
const root = join(import.meta.dirname, '..');
const SRC = 'apps/api/src';

/**
 * The owner of each table, by SQL name: a module of modules/registry.ts, whose whole domain folder
 * (`modules/<domain>/`, sub-folders included: the folder the module's index.ts sits in, or the one
 * above it when the module is a sub-folder of its domain) may write the table; or a file of
 * apps/api/src (a path with a slash) that alone writes it. A new table needs a line here.
 */
const OWNERS: Record<string, string> = {
  // the catalog domain: catalogs and their categories
  catalogs: 'catalog',
  catalog_categories: 'catalog',
  categories: 'catalog',
  category_rollups: 'catalog',
  // the products domain: products, their parts, stock, imports
  products: 'products',
  product_features: 'products',
  product_config_options: 'products',
  product_config_choices: 'products',
  product_associations: 'products',
  product_contents: 'products',
  product_categories: 'products',
  product_images: 'products',
  product_slug_history: 'products',
  product_options: 'products',
  product_option_values: 'products',
  product_variants: 'products',
  product_variant_images: 'products',
  stock_movements: 'products',
  product_imports: 'products',
  product_import_errors: 'products',
  product_reviews: 'reviews',
  // the store, its hosts and settings
  tenants: 'tenant',
  store_hosts: 'tenant',
  product_stores: 'tenant',
  store_settings: 'store-settings',
  seo_meta: 'store-settings',
  store_lifecycle: 'store-lifecycle',
  // a store's database (decision 123): its placement, and a move's capture of changed rows
  store_placements: 'store-move',
  store_moves_under_way: 'store-move',
  store_move_changes: 'store-move',
  store_lifecycle_history: 'store-lifecycle',
  signup_requests: 'signup',
  store_setup: 'signup',
  banners: 'banners',
  cms_pages: 'cms',
  faqs: 'cms',
  content_drafts: 'drafts',
  content_versions: 'drafts',
  contact_messages: 'contact',
  contact_message_replies: 'contact',
  newsletter_subscribers: 'newsletter',
  newsletter_requests: 'newsletter',
  media: 'media',
  sitemap_files: 'sitemap',
  marketplace_connections: 'marketplace',
  product_feeds: 'marketplace',
  // people: accounts, sessions, staff, customers
  users: 'auth',
  sessions: 'auth',
  password_resets: 'auth',
  email_confirmations: 'auth',
  auth_attempts: 'lib/attempts.ts',
  staff_invitations: 'staff',
  customer_invitations: 'store-access',
  postal_addresses: 'addresses',
  wishlist_items: 'wishlist',
  customer_summaries: 'customers',
  customer_notes: 'customers',
  // selling: carts, orders, returns, payments, promotions
  carts: 'cart',
  cart_lines: 'cart',
  cart_idempotency_keys: 'cart',
  orders: 'orders',
  order_lines: 'orders',
  order_status_history: 'orders',
  order_refunds: 'orders',
  order_fulfillments: 'orders',
  order_events: 'orders',
  order_views: 'orders',
  shipping_methods: 'shipping',
  shipping_zones: 'shipping',
  paypal_checkouts: 'checkout',
  tax_rates: 'tax',
  store_tax_settings: 'tax',
  store_domains: 'domains',
  cancel_requests: 'cancel-request',
  cancel_request_history: 'cancel-request',
  return_requests: 'returns',
  return_lines: 'returns',
  return_status_history: 'returns',
  promo_codes: 'promotions',
  promo_redemptions: 'promotions',
  saved_cards: 'payments',
  payment_configs: 'payments',
  paypal_sellers: 'payments',
  paypal_seller_history: 'payments',
  paypal_webhook_events: 'payments',
  payment_issues: 'payments',
  carrier_accounts: 'carriers',
  // a store's own Stripe account, its checkout sessions and webhook events (decision 118)
  stripe_accounts: 'payments',
  stripe_checkouts: 'payments',
  stripe_webhook_events: 'payments',
  // the dashboard's sales figures, rebuilt from orders
  sales_daily: 'dashboard',
  product_sales_daily: 'dashboard',
  customer_sales_daily: 'dashboard',
  customer_first_orders: 'dashboard',
  sales_rollup_state: 'dashboard',
  // the platform: jobs, the audit log, the operator
  jobs: 'jobs',
  job_schedules: 'jobs',
  audit_log: 'audit',
  operators: 'operator',
  operator_sessions: 'operator',
  operator_challenges: 'operator',
  operator_tokens: 'operator',
  platform_audit_log: 'operator',
  operator_store_figures: 'operator',
  support_grants: 'operator',
  support_sessions: 'operator',
};

/**
 * Writes outside the owner's folder that exist today, as `file (under apps/api/src) table`. THIS LIST
 * MUST END EMPTY: it may only shrink. A write moved into its owner (or behind a function of the
 * owner's index.ts) fails the test until its line here is removed, and a new second writer is not
 * added here but written through the owner.
 */
const KNOWN_SECOND_WRITERS: string[] = [];

/**
 * Writes whose table is a value the finder cannot read (`sql.identifier(table)`): the tables it may
 * be, by file. Each must belong to the file's own domain.
 */
const DYNAMIC_WRITES: Record<string, string[]> = {
  'modules/dashboard/sales-rollup.ts': ['sales_daily', 'product_sales_daily', 'customer_sales_daily'],
};

/**
 * Files that write every store table the database's catalog lists, whatever its domain, the way a
 * migration does: a store's archive import and its purge (decision 122), its move (decision 123). They
 * carry no domain's rules: a store's rows go in or out whole. Only these files, and only
 * through the catalog's list (their tables are interpolated, so the finder cannot name them).
 */
const WHOLE_STORE_WRITERS = [
  'modules/store-archive/import/import.ts',
  'modules/store-archive/purge/purge.ts',
  // A store moved to another database (decision 123): copied row for row, and cleared from the target
  // when the move fails before its switch.
  'modules/store-move/row-copy.ts',
  'modules/store-move/store-move.service.ts',
];

/**
 * Files under apps/api/src that only tests import (fixtures that fill a test's database directly).
 * They are not the app: they may write any table.
 */
const TEST_SUPPORT = [/^test\//, /-test-setup\.ts$/, /^modules\/products\/search-index\/search-oracle\.ts$/];

// ---------------------------------------------------------------------------------------------------
// The finder

/** A write to a table as read in the source: the table as written there. */
export interface Write {
  line: number;
  /** `schema.products`, `p` (an alias), `products` (a SQL name), `${...}` (a table interpolated in SQL) */
  target: string;
  kind: 'drizzle' | 'sql';
  verb: 'insert' | 'update' | 'delete';
}

interface Template {
  tag: string;
  start: number;
  /** The template's text, each `${...}` replaced by `«n»` (n indexes `exprs`). */
  text: string;
  exprs: string[];
  /** The offset in the source of each character of `text` (for line numbers). */
  at: number[];
}

/**
 * Reads TypeScript source: `code` is the source with comments, strings, regular expressions and
 * template texts blanked (offsets and newlines kept), and `templates` every template literal with the
 * tag before it. Templates nest (a tagged template inside another's placeholder) and are all found.
 */
export function scan(src: string): { code: string; templates: Template[] } {
  const code = src.split('');
  const templates: Template[] = [];
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (code[k] !== '\n') code[k] = ' ';
  };
  // Whether a `/` starts a regular expression rather than a division.
  const regexMayStart = (i: number) => {
    let k = i - 1;
    while (k >= 0 && /\s/.test(src[k] as string)) k--;
    if (k < 0) return true;
    if ('(,=:[!&|?{};+-*%<>~^'.includes(src[k] as string)) return true;
    const word = /[A-Za-z_$][\w$]*$/.exec(src.slice(Math.max(0, k - 10), k + 1))?.[0];
    return word === 'return' || word === 'typeof' || word === 'case' || word === 'of' || word === 'in';
  };

  /** Scans code from `start`; with `inExpr`, stops after the `}` that closes a `${`. */
  const scanCode = (start: number, inExpr: boolean): number => {
    let i = start;
    let depth = 0;
    while (i < src.length) {
      const c = src[i];
      const d = src[i + 1];
      if (c === '/' && d === '/') {
        const end = src.indexOf('\n', i);
        const stop = end < 0 ? src.length : end;
        blank(i, stop);
        i = stop;
      } else if (c === '/' && d === '*') {
        const end = src.indexOf('*/', i + 2);
        const stop = end < 0 ? src.length : end + 2;
        blank(i, stop);
        i = stop;
      } else if (c === '"' || c === "'") {
        let k = i + 1;
        while (k < src.length && src[k] !== c && src[k] !== '\n') k += src[k] === '\\' ? 2 : 1;
        blank(i + 1, k);
        i = k + 1;
      } else if (c === '`') {
        i = scanTemplate(i);
      } else if (c === '/' && regexMayStart(i)) {
        let k = i + 1;
        let inClass = false;
        while (k < src.length && src[k] !== '\n') {
          if (src[k] === '\\') k++;
          else if (src[k] === '[') inClass = true;
          else if (src[k] === ']') inClass = false;
          else if (src[k] === '/' && !inClass) break;
          k++;
        }
        blank(i + 1, k);
        i = k + 1;
      } else if (c === '{') {
        depth++;
        i++;
      } else if (c === '}') {
        if (inExpr && depth === 0) return i + 1;
        depth--;
        i++;
      } else i++;
    }
    return i;
  };

  /** Scans a template literal from its opening backtick; returns the index after the closing one. */
  const scanTemplate = (open: number): number => {
    const before = src.slice(Math.max(0, open - 80), open);
    const tag = /([A-Za-z_$][\w$.]*)\s*(?:<[^<>`]*>)?\s*$/.exec(before)?.[1] ?? '';
    const t: Template = { tag, start: open, text: '', exprs: [], at: [] };
    let i = open + 1;
    while (i < src.length && src[i] !== '`') {
      if (src[i] === '\\') {
        t.text += src.slice(i, i + 2);
        t.at.push(i, i + 1);
        i += 2;
      } else if (src[i] === '$' && src[i + 1] === '{') {
        const end = scanCode(i + 2, true);
        const marker = `«${t.exprs.length}»`;
        t.exprs.push(src.slice(i + 2, end - 1).trim());
        t.text += marker;
        for (let k = 0; k < marker.length; k++) t.at.push(i);
        i = end;
      } else {
        t.text += src[i];
        t.at.push(i);
        if (src[i] !== '\n') code[i] = ' ';
        i++;
      }
    }
    templates.push(t);
    return i + 1;
  };

  scanCode(0, false);
  return { code: code.join(''), templates };
}

const lineAt = (src: string, offset: number) => src.slice(0, offset).split('\n').length;

/**
 * A statement that writes: `INSERT INTO t`, `UPDATE t`, `DELETE FROM t`, with `t` a name, `ONLY t`
 * or an interpolated table. An UPDATE after FOR, KEY, DO or ON is a row lock, an upsert's second half
 * or a foreign key's action; SET, SKIP, OF and NOWAIT after it are not tables.
 */
const SQL_WRITE =
  /(?<![\w$])(?<prev>\w+\s+)?(?<verb>INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:ONLY\s+)?(?<target>"?[A-Za-z_]\w*"?|«\d+»)/gi;
const NOT_AFTER = new Set(['for', 'key', 'do', 'on']);
const NOT_A_TABLE = new Set(['set', 'skip', 'of', 'nowait']);

/** A drizzle write: `.insert(t)`, `.update(t)`, `.delete(t)`, `insertWhere(t, ...)`. */
const DRIZZLE_WRITE =
  /(?:\.(?<verb>insert|update|delete)|(?<![\w$.])(?<helper>insertWhere))\(\s*(?<target>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*[,)]/g;

/** Every write in a file's source, in line order (not yet known to be a table: see `tableOf`). */
export function findWrites(src: string): Write[] {
  const { code, templates } = scan(src);
  const writes: Write[] = [];
  for (const m of code.matchAll(DRIZZLE_WRITE)) {
    const g = m.groups as { verb?: Write['verb']; target: string };
    writes.push({ line: lineAt(src, m.index), target: g.target, kind: 'drizzle', verb: g.verb ?? 'insert' });
  }
  for (const t of templates) {
    if (t.tag !== 'sql') continue;
    for (const m of t.text.matchAll(SQL_WRITE)) {
      const g = m.groups as { prev?: string; verb: string; target: string };
      const verb = g.verb.split(/\s+/)[0]?.toLowerCase() as Write['verb'];
      if (verb === 'update' && g.prev && NOT_AFTER.has(g.prev.trim().toLowerCase())) continue;
      if (NOT_A_TABLE.has(g.target.toLowerCase())) continue;
      const expr = /^«(\d+)»$/.exec(g.target);
      const target = expr ? `\${${t.exprs[Number(expr[1])]}}` : g.target.replaceAll('"', '').toLowerCase();
      const offset = t.at[m.index + (g.prev?.length ?? 0)] ?? t.start;
      writes.push({ line: lineAt(src, offset), target, kind: 'sql', verb });
    }
  }
  return writes.sort((a, b) => a.line - b.line);
}

/** The schema's tables: SQL name by export name, and the other way. */
const tables = new Map<string, string>();
for (const [name, value] of Object.entries(schema)) if (is(value, PgTable)) tables.set(name, getTableName(value));
const exportOf = new Map([...tables].map(([name, sqlName]) => [sqlName, name]));

/**
 * The SQL name of the table a write names; null when the target is no table (a map's `.delete(key)`,
 * a route's `app.delete(...)`); `?<expression>` when SQL interpolates a value the finder cannot read.
 * An alias is the nearest `const p = schema.products` above the write in the same file.
 */
export function tableOf(w: Write, src: string, file?: string): string | null {
  const interpolated = /^\$\{(.*)\}$/s.exec(w.target);
  if (w.kind === 'sql' && !interpolated) return exportOf.has(w.target) ? w.target : `?${w.target}`;
  const target = interpolated ? (interpolated[1] as string).trim() : w.target;
  const unknown = interpolated ? `?${target}` : null;
  const direct = /^schema\.(\w+)$/.exec(target);
  if (direct) return tables.get(direct[1] as string) ?? unknown;
  if (!/^[A-Za-z_$][\w$]*$/.test(target)) return unknown;
  const above = src.split('\n').slice(0, w.line).join('\n');
  const alias = new RegExp(`\\b(?:const|let)\\s+${target.replaceAll('$', '\\$')}\\s*=\\s*schema\\.(\\w+)\\b`, 'g');
  const name = [...above.matchAll(alias)].at(-1)?.[1];
  return (name && tables.get(name)) || (file && importedAlias(target, src, file)) || unknown;
}

/** An alias imported from a file beside: `import { j } from './job-model'`, which has `export const j = schema.jobs`. */
function importedAlias(target: string, src: string, file: string): string | null {
  for (const m of src.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(\.[^']+)'/g)) {
    for (const part of (m[1] as string).split(',')) {
      const [exported, local = exported] = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/);
      if (local !== target || !exported) continue;
      const base = join(root, SRC, dirname(file), m[2] as string);
      const path = [`${base}.ts`, join(base, 'index.ts')].find((p) => statSync(p, { throwIfNoEntry: false }));
      if (!path) return null;
      const found = new RegExp(`export const ${exported.replaceAll('$', '\\$')}\\s*=\\s*schema\\.(\\w+)\\b`).exec(
        readFileSync(path, 'utf8'),
      );
      return (found && tables.get(found[1] as string)) ?? null;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------
// The owners' folders, read from the registry

const registry = readFileSync(join(root, SRC, 'modules/registry.ts'), 'utf8');
/** Each module's domain folder: `modules/products` for './products/index' and './products/admin/index'. */
const domainOf = new Map(
  [...registry.matchAll(/^\s*'?([\w-]+)'?: \(\) => import\('\.\/([\w-]+)(?:\/[\w/-]+)?\/index'\)/gm)].map((m) => [
    m[1] as string,
    `modules/${m[2]}/`,
  ]),
);
const ownerFolder = (owner: string) => (owner.includes('/') ? owner : domainOf.get(owner));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [relative(SRC, path)] : [];
  });
}

interface FoundWrite {
  file: string;
  line: number;
  table: string;
}

function allWrites(): FoundWrite[] {
  return sourceFiles(SRC)
    .filter((file) => !TEST_SUPPORT.some((re) => re.test(file)) && !WHOLE_STORE_WRITERS.includes(file))
    .flatMap((file) => {
      const src = readFileSync(join(root, SRC, file), 'utf8');
      return findWrites(src).flatMap((w) => {
        const table = tableOf(w, src, file);
        if (table === null) return [];
        if (table.startsWith('?')) {
          const maybe = DYNAMIC_WRITES[file];
          return maybe ? maybe.map((t) => ({ file, line: w.line, table: t })) : [{ file, line: w.line, table }];
        }
        return [{ file, line: w.line, table }];
      });
    });
}

const outsideOwner = (w: FoundWrite) => {
  const folder = ownerFolder(OWNERS[w.table] ?? '');
  return !folder || !(folder.endsWith('/') ? w.file.startsWith(folder) : w.file === folder);
};

// ---------------------------------------------------------------------------------------------------

const q = (text: string) => `${'sql'}\`${text}\``;

describe('the table-write finder', () => {
  it('finds drizzle writes on schema tables and their aliases, not other calls named alike', () => {
    const src = [
      'const p = schema.products;',
      'await tx.update(p).set({ name }).where(x);',
      'await db.insert(schema.stockMovements).values(rows);',
      'await tx',
      '  .delete(schema.productImages)',
      '  .where(y);',
      'cache.delete(key); app.delete("/x", h); this.update(ctx, input);',
      'insertWhere(schema.jobs, [row], ok);',
      '// tx.update(schema.orders) in a comment',
      "const s = 'tx.insert(schema.orders)';",
    ].join('\n');
    const found = findWrites(src).map((w) => [w.line, w.verb, tableOf(w, src)]);
    expect(found.filter(([, , t]) => t !== null)).toEqual([
      [2, 'update', 'products'],
      [3, 'insert', 'stock_movements'],
      [5, 'delete', 'product_images'],
      [8, 'insert', 'jobs'],
    ]);
  });

  it('finds raw writes in sql templates, with their lines, and not locks, upserts or prose', () => {
    const src = [
      `await run(${q('UPDATE products p SET list_price = 1')});`,
      `const s = ${q(`\n  INSERT INTO stock_movements (a) VALUES (1)\n  ON CONFLICT (a) DO UPDATE SET a = 2`)};`,
      `const c = schema.cartLines; run(${q(`DELETE FROM \${c} WHERE \${c.cartId} = \${id}`)});`,
      `run(${q(`SELECT 1 FROM jobs FOR ${'UPDATE'} SKIP ${'LOCKED'}`)}); run(${q('SELECT 1 FOR NO KEY UPDATE OF t')});`,
      '/** One UPDATE products FROM (VALUES ...) per batch. */',
      `const text = \`UPDATE products SET a = 1\`; run(${q('DELETE FROM ONLY "orders"')});`,
      `run(${q(`WITH x AS (\${${q('UPDATE jobs SET a = 1')}}) SELECT 1`)});`,
    ].join('\n');
    const found = findWrites(src).map((w) => [w.line, w.verb, tableOf(w, src)]);
    expect(found).toEqual([
      [1, 'update', 'products'],
      [3, 'insert', 'stock_movements'],
      [5, 'delete', 'cart_lines'],
      [8, 'delete', 'orders'],
      [9, 'update', 'jobs'],
    ]);
  });

  it('marks a table interpolated as a value it cannot read', () => {
    const src = `run(${q(`DELETE FROM \${sql.identifier(table)} WHERE a = 1`)});`;
    expect(findWrites(src).map((w) => tableOf(w, src))).toEqual(['?sql.identifier(table)']);
  });
});

describe('every table is written by its owning domain only (decision 110)', () => {
  const writes = allWrites();
  const key = (w: FoundWrite) => `${w.file} ${w.table}`;

  it('finds the writes of the app', () => {
    expect(writes.length).toBeGreaterThan(200);
    expect(writes.some((w) => w.table === 'products')).toBe(true);
  });

  it('knows every write’s table: none is interpolated unseen', () => {
    expect(writes.filter((w) => w.table.startsWith('?')).map((w) => `${w.file}:${w.line}: ${w.table}`)).toEqual([]);
  });

  it('gives every table an owner that exists', () => {
    const sqlNames = [...tables.values()];
    expect(
      sqlNames.filter((t) => !OWNERS[t]),
      'tables without an owner: add them to OWNERS',
    ).toEqual([]);
    expect(
      Object.keys(OWNERS).filter((t) => !sqlNames.includes(t)),
      'owners of tables that are gone',
    ).toEqual([]);
    const missing = Object.entries(OWNERS).filter(([, owner]) => {
      const folder = ownerFolder(owner);
      return !folder || !statSync(join(root, SRC, folder), { throwIfNoEntry: false });
    });
    expect(missing, 'owners that are neither a module of modules/registry.ts nor a file').toEqual([]);
    for (const [file, maybe] of Object.entries(DYNAMIC_WRITES)) {
      expect(
        maybe.filter((t) => outsideOwner({ file, line: 0, table: t })),
        file,
      ).toEqual([]);
    }
  });

  it('finds no write outside the owner’s folder but the known ones', () => {
    const wrong = writes
      .filter((w) => outsideOwner(w) && !KNOWN_SECOND_WRITERS.includes(key(w)))
      .map(
        (w) =>
          `${SRC}/${w.file}:${w.line} writes ${w.table}, owned by ${OWNERS[w.table]} (${ownerFolder(OWNERS[w.table] ?? '')})`,
      );
    expect(wrong, "write through a function of the owner's index.ts").toEqual([]);
  });

  it('lists only second writers that still write: the list only shrinks', () => {
    const still = new Set(writes.filter(outsideOwner).map(key));
    expect(
      KNOWN_SECOND_WRITERS.filter((k) => !still.has(k)),
      'remove these from KNOWN_SECOND_WRITERS',
    ).toEqual([]);
    expect(new Set(KNOWN_SECOND_WRITERS).size).toBe(KNOWN_SECOND_WRITERS.length);
  });
});
