/**
 * The catalog admin's pure helpers alone (no database): the id a new category gets from its name,
 * how a category is named in a refusal, and how a refused input names its field.
 */

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../../lib/errors';
import { parse } from './catalog-admin-helpers';
import { idFromName, label } from './category-places';

describe('a new category id from its name', () => {
  it('keeps letters and digits, joins the rest with one underscore, in capitals, at most 40 long', () => {
    expect(idFromName('Garden ferns & mosses')).toBe('GARDEN_FERNS_MOSSES');
    expect(idFromName('  Pots -- & -- planters ')).toBe('POTS_PLANTERS');
    expect(idFromName('x'.repeat(60))).toHaveLength(40);
  });

  it('falls back to CATEGORY for a name with no letter or digit', () => {
    expect(idFromName('🌿 — ✿')).toBe('CATEGORY');
  });
});

describe('a category named in a refusal', () => {
  it('gives the name and the id, or the id alone', () => {
    expect(label({ productCategoryId: 'FERNS', categoryName: 'Ferns' })).toBe('"Ferns" (FERNS)');
    expect(label({ productCategoryId: 'FERNS', categoryName: null })).toBe('FERNS');
  });
});

describe('input checked against a schema', () => {
  const schema = z.object({ categoryName: z.string({ error: 'categoryName is required.' }).min(1) });

  it('answers the parsed input', () => {
    expect(parse(schema, { categoryName: 'Ferns' })).toEqual({ categoryName: 'Ferns' });
  });

  it('refuses with a 400 that names the first field and keeps its message for the form', () => {
    let caught: unknown;
    try {
      parse(schema, {});
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    const err = caught as AppError;
    expect(err.statusCode).toBe(400);
    expect(err.field).toBe('categoryName');
    expect(err.message).toBe('categoryName is required.');
    expect(err.fieldMessage).toBe('categoryName is required.');
  });
});
