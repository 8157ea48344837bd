/** Where a CSRF token travels: a hidden field in page forms, a header from API clients. */
export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';
