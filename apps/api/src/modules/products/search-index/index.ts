/**
 * Product search in process (decision 014; the folder's README.md says what is ported from
 * PostgreSQL and why). PostgreSQL stays the source of truth and the text analyser: it stems the
 * query (websearch_to_tsquery) and computes every product's tsvector. This folder keeps, per tenant,
 * what a search needs from those vectors and from the filterable columns in typed arrays, and
 * answers match, rank, facets, sort and paging without reading the table.
 *
 * Answers equal the SQL they replace: `search_vector @@ q`, ordered by the name tiers plus
 * `ts_rank(search_vector, q)` (reproduced from PostgreSQL's tsrank.c with its float4 arithmetic, so
 * ties order as they did), facets counted with every filter but their own. The tests compare both.
 *
 * This file is the folder's public face: the products service and the tests import from here.
 */
export type { IndexFilters, IndexPage } from './answer';
export { createSearchIndexes, type SearchIndexes, type SearchIndexOptions } from './indexes';
export type { IndexSort } from './order';
export { compareLexemes, pgQsort } from './pg-qsort';
export type { RankPlan } from './rank';
export { buildTenantIndex, readPatchRows } from './read';
export type { PatchRow } from './rows';
export { TenantIndex } from './tenant-index';
export { decodeTsQuery, searchTsQuery, type TsNode, type TsOperand, type TsQuery, tsQueryOf } from './tsquery';
