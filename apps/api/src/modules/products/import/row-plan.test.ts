/**
 * A CSV row's plan alone (no database, no file): what a row will do is decided here for the dry run
 * and the run alike, so each refusal and each "nothing to change" is checked row by row.
 */
import { describe, expect, it } from 'vitest';
import { NOT_UTF8, planRow, type StoreFacts } from './row-plan';

const facts: StoreFacts = {
  categoryIds: new Set(['LAMPS']),
  slugHolders: new Map<string, string | null>([
    ['brass-lamp', 'P-1'],
    ['freed', null],
  ]),
};
const row = (cells: Record<string, string>, notUtf8: string | null = null) => ({ row: 2, cells, notUtf8 });

describe('a CSV row planned', () => {
  it('creates a product the store does not have', () => {
    const plan = planRow(row({ sku: 'NEW-1', name: 'Walnut lamp', list_price: '12.50' }), null, facts, 'USD');
    expect(plan).toMatchObject({
      kind: 'create',
      sku: 'NEW-1',
      fields: { productName: 'Walnut lamp', listPrice: 1250 },
    });
  });

  it('refuses a cell that is not UTF-8, naming its column', () => {
    const plan = planRow(row({ sku: 'NEW-1', name: 'Lamp', list_price: '1' }, 'name'), null, facts, 'USD');
    expect(plan).toEqual({ kind: 'refused', sku: 'NEW-1', problems: [{ column: 'name', message: NOT_UTF8 }] });
  });

  it('refuses a category the store does not have', () => {
    const plan = planRow(
      row({ sku: 'NEW-1', name: 'Lamp', list_price: '1', categories: 'LAMPS|GHOSTS' }),
      null,
      facts,
      'USD',
    );
    expect(plan).toEqual({
      kind: 'refused',
      sku: 'NEW-1',
      problems: [{ column: 'categories', message: 'No category GHOSTS in this store.' }],
    });
  });

  it('refuses a slug another product holds, and takes one an earlier row freed', () => {
    const taken = planRow(row({ sku: 'NEW-1', name: 'Lamp', list_price: '1', slug: 'brass-lamp' }), null, facts, 'USD');
    expect(taken).toMatchObject({ kind: 'refused', problems: [{ column: 'slug' }] });
    const freed = planRow(row({ sku: 'NEW-1', name: 'Lamp', list_price: '1', slug: 'freed' }), null, facts, 'USD');
    expect(freed).toMatchObject({ kind: 'create', fields: { slug: 'freed' } });
  });

  it('leaves a product alone when the row says what it already has, and lists the columns that change', () => {
    const created = planRow(row({ sku: 'S-1', name: 'Lamp', list_price: '5', slug: 'lamp' }), null, facts, 'USD');
    if (created.kind !== 'create') throw new Error(`expected a create, got ${created.kind}`);
    const existing = { productId: 'P-9', fields: created.fields, stockQuantity: 0, categoryIds: [] };
    expect(planRow(row({ sku: 'S-1', name: 'Lamp', list_price: '5' }), existing, facts, 'USD')).toEqual({
      kind: 'unchanged',
      sku: 'S-1',
      productId: 'P-9',
    });
    expect(planRow(row({ sku: 'S-1', name: 'Lamp', list_price: '6' }), existing, facts, 'USD')).toMatchObject({
      kind: 'update',
      productId: 'P-9',
      changes: ['list_price'],
    });
  });

  it('compares the tax class: the same or blank is no change, another is written alone, an unknown one is refused', () => {
    const created = planRow(
      row({ sku: 'S-1', name: 'Lamp', list_price: '5', tax_class: 'reduced' }),
      null,
      facts,
      'USD',
    );
    expect(created).toMatchObject({ kind: 'create', taxClass: 'reduced' });
    if (created.kind !== 'create') throw new Error(`expected a create, got ${created.kind}`);
    const existing = {
      productId: 'P-9',
      fields: created.fields,
      stockQuantity: 0,
      categoryIds: [],
      taxClass: 'reduced' as const,
    };
    const plan = (taxClass: string) =>
      planRow(row({ sku: 'S-1', name: 'Lamp', list_price: '5', tax_class: taxClass }), existing, facts, 'USD');
    expect(plan('reduced')).toMatchObject({ kind: 'unchanged' });
    expect(plan('')).toMatchObject({ kind: 'unchanged' });
    expect(plan('EXEMPT')).toMatchObject({ kind: 'update', taxClass: 'exempt', changes: ['tax_class'] });
    expect(plan('zero')).toEqual({
      kind: 'refused',
      sku: 'S-1',
      problems: [{ column: 'tax_class', message: '"zero" is not a tax class: use standard, reduced, exempt.' }],
    });
    // A new product without a class, or standard, is the default: nothing to write after it.
    expect(
      planRow(row({ sku: 'S-2', name: 'Lamp', list_price: '5', tax_class: 'standard' }), null, facts, 'USD'),
    ).toMatchObject({
      kind: 'create',
      taxClass: null,
    });
  });
});
