/** The largest request body the API (and a page's form post) reads: JSON and forms are small. */
export const BODY_LIMIT_BYTES = 1024 * 1024;
