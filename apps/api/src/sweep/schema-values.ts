/**
 * Values made from the JSON schemas of the OpenAPI document: one valid example per schema, and the
 * malformed variants the sweep sends (sweep.test.ts). Nothing here knows a route: a schema written
 * tomorrow gets its example and its mutations from the same rules.
 */

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  [key: string]: unknown;
};

/** Real values seen in the store's own answers, by property name (see harvest in sweep.test.ts). */
export type Known = (name: string) => unknown[];

const SAMPLE_STRINGS = [
  'sweep',
  'Sweep',
  'sweep-1',
  'SWEEP1',
  '2026-03-01',
  '2026-03-01T10:00:00.000Z',
  'https://example.com/sweep',
  '#336699',
  'sweep@example.com',
  'default',
  '/sweep',
  'Y',
  'N',
  '1',
  '10',
  '10.00',
  'US',
  'a',
];

function admits(schema: JsonSchema, value: string): boolean {
  if (schema.minLength !== undefined && value.length < schema.minLength) return false;
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
  if (schema.pattern) {
    try {
      if (!new RegExp(schema.pattern, 'u').test(value)) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** The JSON types a schema admits ('integer' counts as 'number'). */
export function typesOf(schema: JsonSchema | undefined): Set<string> {
  const out = new Set<string>();
  if (!schema) return out;
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    for (const t of typesOf(branch)) out.add(t);
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  for (const t of types) out.add(t === 'integer' ? 'number' : t);
  if (schema.enum) for (const v of schema.enum) out.add(v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (schema.properties) out.add('object');
  return out;
}

/** The branch a valid example is made from: the first that is not just null. */
function mainBranch(schema: JsonSchema): JsonSchema {
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches?.length) return schema;
  const chosen = branches.find((b) => !(b.type === 'null' || (b.enum?.length === 1 && b.enum[0] === null)));
  return {
    ...mainBranch(chosen ?? branches[0] ?? {}),
    ...(schema.default !== undefined ? { default: schema.default } : {}),
  };
}

function stringExample(schema: JsonSchema, name: string, known: Known): string {
  const fromStore = known(name).filter((v): v is string => typeof v === 'string' && admits(schema, v));
  if (fromStore[0] !== undefined) return fromStore[0];
  if (schema.format === 'email') return 'sweep@example.com';
  if (schema.format === 'date-time') return '2026-03-01T10:00:00.000Z';
  if (schema.format === 'date') return '2026-03-01';
  if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/sweep';
  const fits = SAMPLE_STRINGS.find((s) => admits(schema, s));
  if (fits !== undefined) return fits;
  return 'a'.repeat(Math.max(1, schema.minLength ?? 1));
}

function numberExample(schema: JsonSchema, name: string, known: Known, integer: boolean): number {
  const fromStore = known(name).find((v): v is number => typeof v === 'number');
  if (fromStore !== undefined) return fromStore;
  let n = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
  if (schema.maximum !== undefined && n > schema.maximum) n = schema.maximum;
  return integer ? Math.ceil(n) : n;
}

/** A value the schema accepts, preferring what the store itself answered for a field of that name. */
export function example(schema: JsonSchema | undefined, name = '', known: Known = () => [], depth = 0): unknown {
  if (!schema || depth > 8) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.enum?.length) {
    const seen = known(name).find((v) => schema.enum?.includes(v));
    return seen ?? schema.enum.find((v) => v !== null) ?? schema.enum[0];
  }
  if (schema.allOf?.length) return example({ ...schema, allOf: undefined, ...schema.allOf[0] }, name, known, depth + 1);
  const s = mainBranch(schema);
  if (s !== schema) return example(s, name, known, depth + 1);
  if (s.default !== undefined && s.default !== null) return s.default;
  const types = Array.isArray(s.type) ? s.type.filter((t) => t !== 'null') : s.type ? [s.type] : [];
  const type = types[0] ?? (s.properties ? 'object' : s.items ? 'array' : 'string');
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = example(s.properties?.[key], key, known, depth + 1);
      return out;
    }
    case 'array': {
      const n = Math.max(1, s.minItems ?? 1);
      return Array.from({ length: Math.min(n, 3) }, () => example(s.items, name, known, depth + 1));
    }
    case 'integer':
      return numberExample(s, name, known, true);
    case 'number':
      return numberExample(s, name, known, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return stringExample(s, name, known);
  }
}

/** A value of a JSON type the schema does not admit: what a client with the wrong types sends. */
export function wrongValue(schema: JsonSchema | undefined): { label: string; value: unknown } | null {
  const types = typesOf(schema);
  if (!types.size) return null;
  // The refund's "1e2" and "0x10" were read as numbers: a numeric string is the sharpest probe.
  if (types.has('number') && !types.has('string')) return { label: 'string for number', value: '1e2' };
  if (types.has('string') && !types.has('number')) return { label: 'number for string', value: 12345 };
  if (types.has('boolean') && !types.has('string')) return { label: 'string for boolean', value: 'true' };
  if (types.has('array') && !types.has('object')) return { label: 'object for array', value: { 0: 'x' } };
  if (types.has('object') && !types.has('array')) return { label: 'array for object', value: ['x'] };
  return null;
}

export type Leaf = { path: (string | number)[]; schema: JsonSchema | undefined };

/** The properties of an example with the schema that describes each (nested objects and arrays too). */
export function leaves(value: unknown, schema: JsonSchema | undefined, path: (string | number)[] = []): Leaf[] {
  const s = schema ? mainBranch(schema) : undefined;
  const out: Leaf[] = [];
  if (Array.isArray(value)) {
    if (value.length) out.push(...leaves(value[0], s?.items, [...path, 0]));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const child = s?.properties?.[k];
      out.push({ path: [...path, k], schema: child });
      if (v && typeof v === 'object') out.push(...leaves(v, child, [...path, k]));
    }
  }
  return out;
}

/** A deep copy of `value` with the value at `path` replaced. */
export function setAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (!path.length) return replacement;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = setAt(copy[head], rest, replacement);
  return copy;
}

/** A field that holds a date, by its format, pattern or name (the list filters use plain strings). */
export function isDateField(name: string, schema: JsonSchema | undefined): boolean {
  const s = schema ? mainBranch(schema) : undefined;
  if (s?.format === 'date' || s?.format === 'date-time') return true;
  if (s?.pattern && /\\d\{4\}|\[0-9\]\{4\}/.test(s.pattern)) return true;
  return /(^|_)(from|to|since_from|since_to|date|day)$|At$|Date$/.test(name) && typesOf(s).has('string');
}

/** The impossible date for a date field, in the field's own shape. */
export function impossibleDate(schema: JsonSchema | undefined): string {
  const s = schema ? mainBranch(schema) : undefined;
  return s?.format === 'date-time' ? '2026-02-30T10:00:00.000Z' : '2026-02-30';
}

const b64 = (s: string) => Buffer.from(s).toString('base64url');

/**
 * Cursors a client could forge: not base64, base64 of the wrong shape, and the known shapes (JSON
 * with a sort key, "at|id") carrying values of the wrong type or an impossible date. With the sort
 * orders a list declares, one JSON cursor per order, since each order reads its key differently.
 */
export type ForgedCursor = { label: string; value: string; sort?: unknown; mayBeValid?: boolean };

export function forgedCursors(sorts: unknown[]): ForgedCursor[] {
  const out: ForgedCursor[] = [
    { label: 'not base64', value: '!!not-a-cursor!!' },
    { label: 'base64 of nonsense', value: b64('nonsense') },
    { label: 'impossible date|id', value: b64('2026-02-30T00:00:00.000Z|x') },
    { label: 'json with wrong types', value: b64(JSON.stringify({ at: 12, id: [1], key: { a: 1 } })) },
    { label: 'json impossible date', value: b64(JSON.stringify({ at: '2026-02-30T00:00:00.000Z', id: 'x' })) },
    { label: 'json [date, id] impossible date', value: b64(JSON.stringify(['2026-02-30T00:00:00.000Z', 'x'])) },
  ];
  for (const sort of sorts) {
    out.push({
      label: `sort ${String(sort)}, text key`,
      sort,
      value: b64(JSON.stringify({ sort, key: 'zz', id: 'zz' })),
    });
    out.push({ label: `sort ${String(sort)}, number key`, sort, value: b64(JSON.stringify({ sort, key: 7, id: 7 })) });
    out.push({
      label: `sort ${String(sort)}, array key`,
      sort,
      value: b64(JSON.stringify({ sort, k: ['x'], id: null })),
    });
  }
  return out;
}

const DATE_TEXT = /^\d{4}-\d{2}-\d{2}/;

/**
 * Cursors made from a real one the list answered: its JSON decoded and each value replaced by one of
 * the wrong type or an impossible date, and its sort tag swapped for every other sort order the list
 * declares, keeping the key (a date key read as a price is how the products list answered 500).
 */
export function cursorsFromReal(real: string, sorts: unknown[]): ForgedCursor[] {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(real, 'base64url').toString('utf8'));
  } catch {
    return [];
  }
  if (!v || typeof v !== 'object') return [];
  const entries = Object.entries(v as Record<string, unknown>);
  const encode = (x: unknown) => b64(JSON.stringify(x));
  const rebuilt = (key: string, value: unknown) =>
    Array.isArray(v) ? v.map((x, i) => (String(i) === key ? value : x)) : { ...(v as object), [key]: value };
  const out: ForgedCursor[] = [];
  for (const [key, value] of entries) {
    if (sorts.includes(value)) continue;
    if (typeof value === 'number')
      out.push({ label: `real cursor, text for number at ${key}`, value: encode(rebuilt(key, 'zz')) });
    if (typeof value === 'string') {
      out.push({ label: `real cursor, number for text at ${key}`, value: encode(rebuilt(key, 7)) });
      if (DATE_TEXT.test(value))
        out.push({
          label: `real cursor, impossible date at ${key}`,
          value: encode(rebuilt(key, '2026-02-30T00:00:00.000Z')),
        });
      // Another text in place of a text id is a well-formed cursor; in place of a number written as text, not.
      else if (/^-?\d+(\.\d+)?$/.test(value))
        out.push({ label: `real cursor, text for numeric text at ${key}`, value: encode(rebuilt(key, 'zz')) });
    }
  }
  const tag = entries.find(([, value]) => sorts.includes(value));
  if (tag) {
    for (const sort of sorts) {
      if (sort !== tag[1])
        out.push({
          label: `real cursor, sort ${String(sort)} with its key`,
          sort,
          // Two orders may read the same kind of key (newest and oldest): the cursor can be well formed.
          mayBeValid: true,
          value: encode(rebuilt(tag[0], sort)),
        });
    }
  }
  return out;
}
