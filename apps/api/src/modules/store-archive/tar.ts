import { createReadStream } from 'node:fs';
import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Writable } from 'node:stream';

/**
 * The archive's container: a POSIX ustar file (what `tar -xzf` reads) written and read here in a
 * hundred lines rather than through a dependency (decision 122). Only regular files, names of at
 * most 255 bytes, no owners, and every time stamp 0: the same store gives the same bytes.
 */

const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** The 512-byte header of a regular file; the name is split into prefix and name when over 100 bytes. */
export function tarHeader(name: string, size: number): Buffer {
  const h = Buffer.alloc(BLOCK, 0);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new Error(`tar: name too long: ${name}`);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  h.write(base, 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(0, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK, 0);

/** Writes a tar stream into `out` (a gzip stream, say), waiting whenever the stream asks to. */
export class TarWriter {
  constructor(private readonly out: Writable) {}

  private write(chunk: Buffer): Promise<void> {
    if (this.out.write(chunk)) return Promise.resolve();
    return new Promise((res, rej) => {
      const onError = (err: Error) => rej(err);
      this.out.once('error', onError);
      this.out.once('drain', () => {
        this.out.off('error', onError);
        res();
      });
    });
  }

  async addBuffer(name: string, body: Buffer): Promise<void> {
    await this.write(tarHeader(name, body.length));
    await this.write(body);
    await this.write(padding(body.length));
  }

  /** A file from disk, read in chunks; `size` is what was written to it. */
  async addFile(name: string, path: string, size: number): Promise<void> {
    await this.write(tarHeader(name, size));
    let n = 0;
    for await (const chunk of createReadStream(path)) {
      n += (chunk as Buffer).length;
      await this.write(chunk as Buffer);
    }
    if (n !== size) throw new Error(`tar: ${name} changed while being added`);
    await this.write(padding(size));
  }

  /** Two empty blocks end the archive; then the stream is ended and flushed. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2, 0));
    await new Promise<void>((res, rej) => {
      this.out.once('error', rej);
      this.out.end(() => res());
    });
  }
}

export class TarError extends Error {}

/** A name an archive may hold: relative, of safe parts, nothing that climbs out of the directory. */
const SAFE_NAME = /^[A-Za-z0-9{}_.-]+(\/[A-Za-z0-9{}_.-]+)*$/;

function readString(h: Buffer, start: number, len: number): string {
  const s = h.subarray(start, start + len);
  const end = s.indexOf(0);
  return s.subarray(0, end === -1 ? len : end).toString('utf8');
}

/**
 * Unpacks a tar stream into `dir`: regular files only, names checked, at most `maxBytes` of files in
 * all. Answers each file's name and size in archive order. Throws TarError on a damaged or hostile
 * archive (a bad checksum, a link, a name outside `dir`, too large).
 */
export async function extractTar(
  input: AsyncIterable<Buffer>,
  dir: string,
  maxBytes: number,
): Promise<{ name: string; size: number }[]> {
  const base = resolve(dir);
  const files: { name: string; size: number }[] = [];
  let pending: Buffer = Buffer.alloc(0);
  let total = 0;
  let current: { fh: FileHandle; remaining: number; pad: number } | null = null;
  let skip = 0;
  let ended = false;
  try {
    for await (const chunk of input) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (ended) {
          pending = Buffer.alloc(0);
          break;
        }
        if (current) {
          const take = Math.min(current.remaining, pending.length);
          if (take > 0) await current.fh.write(pending.subarray(0, take));
          pending = pending.subarray(take);
          current.remaining -= take;
          if (current.remaining > 0) break;
          await current.fh.close();
          skip = current.pad;
          current = null;
        }
        if (skip > 0) {
          const s = Math.min(skip, pending.length);
          pending = pending.subarray(s);
          skip -= s;
          if (skip > 0) break;
        }
        if (pending.length < BLOCK) break;
        const h = pending.subarray(0, BLOCK);
        pending = pending.subarray(BLOCK);
        if (h.every((b) => b === 0)) {
          ended = true;
          continue;
        }
        let sum = 0;
        for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (h[i] as number);
        if (sum !== Number.parseInt(readString(h, 148, 8).trim(), 8)) throw new TarError('a header is damaged');
        const type = String.fromCharCode(h[156] as number);
        const size = Number.parseInt(readString(h, 124, 12).trim() || '0', 8);
        if (!Number.isSafeInteger(size) || size < 0) throw new TarError('a size is damaged');
        if (type !== '0' && type !== '\0') throw new TarError('the archive holds something other than files');
        const prefix = readString(h, 345, 155);
        const name = prefix ? `${prefix}/${readString(h, 0, 100)}` : readString(h, 0, 100);
        const path = resolve(join(base, name));
        if (!SAFE_NAME.test(name) || name.split('/').includes('..') || !path.startsWith(base + sep)) {
          throw new TarError(`the archive holds a file named ${JSON.stringify(name.slice(0, 120))}`);
        }
        total += size;
        if (total > maxBytes) throw new TarError('the archive is larger than this server takes');
        await mkdir(dirname(path), { recursive: true });
        current = { fh: await open(path, 'wx'), remaining: size, pad: (BLOCK - (size % BLOCK)) % BLOCK };
        files.push({ name, size });
      }
    }
  } finally {
    await current?.fh.close();
  }
  if (current || !ended) throw new TarError('the archive ends early');
  return files;
}
