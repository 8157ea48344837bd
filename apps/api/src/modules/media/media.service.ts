import { randomBytes } from 'node:crypto';
import {
  MEDIA_MAX_PIXELS,
  MEDIA_STORED_MAX_WIDTH,
  MEDIA_UPLOAD_MAX_BYTES,
  type MediaItem,
  type MediaListQuery,
  type MediaPage,
  type MediaUploadResult,
} from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, desc, eq, inArray, lt, or } from 'drizzle-orm';
import { type Access, requireAccess } from '../../lib/access';
import type { RequestContext, TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { isCursorTime } from '../../lib/keyset-cursor';
import type { AuditService } from '../audit/index';
import type { MediaStorage } from './media.storage';

const m = schema.media;

/** The picture formats an owner may upload, as told by their first bytes. */
export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'avif';
type Detected = ImageFormat | 'svg' | null;

const ACCEPTED_NAMES = 'JPEG, PNG, WebP, AVIF or GIF';
const MB = 1024 * 1024;

/**
 * What a file is, from its bytes alone (magic numbers): the name and the browser's content type are
 * the client's say-so and never consulted. SVG is recognised only to refuse it with its own message.
 */
export function detectImageFormat(bytes: Buffer): Detected {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1');
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  // ISO base media file: [size]'ftyp'<major brand><minor version><compatible brands...>
  if (bytes.length >= 16 && ascii(4, 8) === 'ftyp') {
    const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length, 256);
    const brands = [ascii(8, 12)];
    for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(at, at + 4));
    if (brands.includes('avif') || brands.includes('avis')) return 'avif';
    return null;
  }
  // SVG is text: look past a byte-order mark, white space, an XML declaration and comments.
  const head = bytes
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  if (/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return 'svg';
  return null;
}

/** sharp's name for each format (AVIF is a HEIF with AV1 compression). */
const SHARP_FORMAT: Record<ImageFormat, string> = { jpeg: 'jpeg', png: 'png', gif: 'gif', webp: 'webp', avif: 'heif' };

/** A refusal of the file, named as the field `file` for API clients and for forms alike. */
function fileError(
  status: 413 | 415 | 422,
  code: 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE' | 'UNPROCESSABLE',
  message: string,
) {
  const err = new AppError(status, code, `file: ${message}`);
  err.field = 'file';
  err.fieldMessage = message.charAt(0).toUpperCase() + message.slice(1);
  return err;
}
const unsupported = (message: string) => fileError(415, 'UNSUPPORTED_MEDIA_TYPE', message);
const unreadable = () => fileError(422, 'UNPROCESSABLE', 'the picture could not be read; it may be damaged.');

export interface MediaDeps {
  storage: MediaStorage;
  audit: Pick<AuditService, 'record'>;
}

function toItem(r: typeof m.$inferSelect): MediaItem {
  return {
    mediaId: r.mediaId,
    url: `/media/${r.storageKey}`,
    width: r.width,
    height: r.height,
    bytes: r.bytes,
    altText: r.altText,
    createdAt: r.createdAt.toISOString(),
  };
}

function encodeCursor(at: Date, id: string) {
  return Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');
}
function decodeCursor(cursor: string): { at: Date; id: string } {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (extra !== undefined || !at || !id || !/^[0-9a-f]{32}$/.test(id) || !isCursorTime(at)) {
    throw AppError.field(400, 'BAD_REQUEST', 'cursor', 'not a cursor of this list; start again without it.');
  }
  return { at: new Date(at), id };
}

/**
 * The store's media library and the one way pictures enter it (decision 029): the bytes are
 * checked for what they are, pixel floods are refused before decoding, and every picture is
 * re-encoded to WebP (no EXIF, no GPS, no colour-profile tricks, no second frame) at most
 * MEDIA_STORED_MAX_WIDTH wide, under a random name in the tenant's namespace.
 */
export function createMediaService(db: Db, deps: MediaDeps) {
  return {
    async upload(
      ctx: RequestContext,
      file: Buffer,
      /** `access`: the permission of the page uploading (a product picture needs catalog, not settings). */
      opts: { altText?: string | null; access?: Access } = {},
    ): Promise<MediaUploadResult> {
      requireAccess(ctx, opts.access ?? 'settings');
      if (file.length === 0) throw fileError(422, 'UNPROCESSABLE', 'the file is empty.');
      if (file.length > MEDIA_UPLOAD_MAX_BYTES) {
        throw fileError(
          413,
          'PAYLOAD_TOO_LARGE',
          `the picture is larger than ${MEDIA_UPLOAD_MAX_BYTES / MB} MB. Please upload a smaller one.`,
        );
      }
      const format = detectImageFormat(file);
      if (format === 'svg') {
        throw unsupported(
          `SVG pictures are not accepted (they can carry scripts). Please upload a ${ACCEPTED_NAMES} picture.`,
        );
      }
      if (!format) throw unsupported(`this file is not a ${ACCEPTED_NAMES} picture.`);

      const { default: sharp } = await import('sharp');
      let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
      try {
        // Reads the header only: a pixel flood is refused here, before anything is decoded.
        meta = await sharp(file, { limitInputPixels: false }).metadata();
      } catch {
        throw unreadable();
      }
      if (meta.format !== SHARP_FORMAT[format] || !meta.width || !meta.height) {
        throw unreadable();
      }
      const frameHeight = meta.pageHeight ?? meta.height;
      if (meta.width * frameHeight > MEDIA_MAX_PIXELS) {
        throw fileError(
          413,
          'PAYLOAD_TOO_LARGE',
          `the picture is ${meta.width} × ${frameHeight} pixels; at most ${MEDIA_MAX_PIXELS / 1_000_000} megapixels are accepted. Please resize it.`,
        );
      }

      let out: { data: Buffer; info: { width: number; height: number; size: number } };
      try {
        // First frame only (pages: 1); rotate() applies the EXIF orientation before metadata is
        // dropped (sharp writes none unless asked). Runs on libuv's threads, not the event loop.
        out = await sharp(file, { limitInputPixels: MEDIA_MAX_PIXELS, pages: 1, failOn: 'error' })
          .rotate()
          .resize({ width: MEDIA_STORED_MAX_WIDTH, withoutEnlargement: true })
          .webp({ quality: 82 })
          .toBuffer({ resolveWithObject: true });
      } catch {
        throw unreadable();
      }

      const mediaId = randomBytes(16).toString('hex');
      const storageKey = `t/${ctx.tenantId}/m/${mediaId}.webp`;
      // Stored first: a row never points at a missing file. A failed insert leaves an unlisted file.
      await deps.storage.put(storageKey, { body: out.data, contentType: 'image/webp' });
      const altText = opts.altText?.trim() || null;
      const row = {
        tenantId: ctx.tenantId,
        mediaId,
        storageKey,
        contentType: 'image/webp',
        width: out.info.width,
        height: out.info.height,
        bytes: out.info.size,
        sourceFormat: format,
        altText,
        createdBy: ctx.actor.kind === 'staff' ? ctx.actor.userId : null,
      };
      await db.transaction(async (tx) => {
        await tx.insert(m).values(row);
        await deps.audit.record(tx, ctx, {
          entity: 'media',
          entityId: mediaId,
          action: 'upload',
          after: {
            storageKey,
            width: row.width,
            height: row.height,
            bytes: row.bytes,
            sourceFormat: format,
            sourceBytes: file.length,
            altText,
          },
        });
      });
      return { mediaId, url: `/media/${storageKey}`, width: row.width, height: row.height };
    },

    /** One page of the library, newest first. */
    async list(ctx: RequestContext, query: Partial<MediaListQuery>, access: Access = 'settings'): Promise<MediaPage> {
      requireAccess(ctx, access);
      const limit = query.limit ?? 30;
      const conds = [eq(m.tenantId, ctx.tenantId)];
      if (query.cursor) {
        const c = decodeCursor(query.cursor);
        const older = or(lt(m.createdAt, c.at), and(eq(m.createdAt, c.at), lt(m.mediaId, c.id)));
        if (older) conds.push(older);
      }
      const rows = await db
        .select()
        .from(m)
        .where(and(...conds))
        .orderBy(desc(m.createdAt), desc(m.mediaId))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        items: page.map(toItem),
        nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.mediaId) : null,
      };
    },

    /** The library's pictures of these ids in this store (others' ids are simply absent). */
    async find(ctx: TenantContext, mediaIds: string[]): Promise<Map<string, MediaItem>> {
      const ids = [...new Set(mediaIds)].filter((id) => /^[0-9a-f]{32}$/.test(id));
      if (!ids.length) return new Map();
      const rows = await db
        .select()
        .from(m)
        .where(and(eq(m.tenantId, ctx.tenantId), inArray(m.mediaId, ids)));
      return new Map(rows.map((r) => [r.mediaId, toItem(r)]));
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
