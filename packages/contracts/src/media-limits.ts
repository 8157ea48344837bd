// Zod-free, so browser code (the media field) can import them from the client entry.

/** The largest picture an owner may upload, in bytes. */
export const MEDIA_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** The most pixels (width × height) a picture may have; more is a "pixel flood" and refused. */
export const MEDIA_MAX_PIXELS = 40_000_000;
/** The widest picture kept: the storefront never shows a picture wider (MEDIA_WIDTHS' largest). */
export const MEDIA_STORED_MAX_WIDTH = 1600;
export const MEDIA_PAGE_MAX = 100;
/** What the upload field's `accept` offers; the server decides by the bytes, not by this. */
export const MEDIA_ACCEPT = 'image/jpeg,image/png,image/webp,image/avif,image/gif';
