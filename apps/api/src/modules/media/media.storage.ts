import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

export interface MediaObject {
  body: Buffer;
  contentType: string;
}

/** Where uploaded and generated media live; local disk by default, object storage later. */
export interface MediaStorage {
  get(key: string): Promise<MediaObject | null>;
  put(key: string, obj: MediaObject): Promise<void>;
}

const TYPES: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  svg: 'image/svg+xml',
  avif: 'image/avif',
  pdf: 'application/pdf',
};

export function contentTypeOf(key: string): string {
  return TYPES[key.slice(key.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';
}

/** Keys are relative paths of safe characters; nothing can climb out of the media root. */
export const MEDIA_KEY = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_.-]*)+$/i;

export function createDiskStorage(root: string): MediaStorage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const p = resolve(join(base, key));
    if (!MEDIA_KEY.test(key) || key.includes('..') || !p.startsWith(base + sep))
      throw new Error(`bad media key ${key}`);
    return p;
  };
  return {
    async get(key) {
      try {
        return { body: await readFile(pathOf(key)), contentType: contentTypeOf(key) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async put(key, obj) {
      const p = pathOf(key);
      await mkdir(dirname(p), { recursive: true });
      // Write then rename: a reader never sees half a file. The temporary name is this write's own:
      // two writes of one key at once (two requests making the same picture size) must not share it,
      // or the second rename finds its file already moved.
      const tmp = `${p}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(tmp, obj.body);
      await rename(tmp, p);
    },
  };
}
