import { PRODUCT_SORTS, SEARCH_SORTS, SORT_LABELS } from '@app/contracts/client';

type Sort = (typeof SEARCH_SORTS)[number];

export interface SortOption {
  value: Sort;
  label: string;
}

const option = (value: Sort): SortOption => ({ value, label: SORT_LABELS[value] });

export const CATEGORY_SORTS: SortOption[] = PRODUCT_SORTS.map(option);
export const SEARCH_SORT_OPTIONS: SortOption[] = SEARCH_SORTS.map(option);
