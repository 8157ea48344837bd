import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { paintFirst } from './paint-first';

async function run(chunks: Buffer[]) {
  const t = paintFirst();
  const out: Buffer[] = [];
  t.on('data', (c: Buffer | string) => out.push(Buffer.from(c)));
  const ended = new Promise((resolve) => t.on('end', resolve));
  for (const c of chunks) t.write(c);
  t.end();
  await ended;
  return Buffer.concat(out).toString('utf8');
}

function cut(text: string, size: number) {
  const bytes = Buffer.from(text, 'utf8');
  const pieces = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  return pieces;
}

// What React Router 7's <Scripts> writes, in the shape it writes it.
const APP =
  'import "/assets/manifest-1.js";import * as route0 from "/assets/root-1.js";import("/assets/entry.client-1.js");';
const page = [
  '<!DOCTYPE html><html lang="en"><head><title>Café Lámpara</title>',
  '<link rel="modulepreload" href="/assets/entry.client-1.js" nonce="n0nce"/>',
  '<link rel="modulepreload" href="/assets/root-1.js" nonce="n0nce"/>',
  '</head><body><main>Prices from €5 · “Lámparas”</main>',
  '<script nonce="n0nce">window.__ctx = {};</script>',
  `<script nonce="n0nce" type="module" async="">${APP}</script>`,
  '<script nonce="n0nce">window.__ctx.more = 1;</script></body></html>',
].join('');

describe('paintFirst', () => {
  it('lowers the head’s preloads, holds the app script and adds its starter, however the stream is cut', async () => {
    const whole = await run([Buffer.from(page)]);
    expect(whole.match(/<link rel="modulepreload" fetchpriority="low" href=/g)).toHaveLength(2);
    expect(whole).not.toContain('type="module" async');
    expect(whole).toContain(
      `<script nonce="n0nce" type="text/x-after-first-paint">${APP}</script><script nonce="n0nce">`,
    );
    expect(whole).toContain('<main>Prices from €5 · “Lámparas”</main>');
    expect(whole.endsWith('<script nonce="n0nce">window.__ctx.more = 1;</script></body></html>')).toBe(true);
    // Through tags, through the app script, and between the bytes of a character.
    for (const size of [1, 2, 7, 23, 64, 200]) expect(await run(cut(page, size))).toBe(whole);
  });

  it('passes through what it does not recognise', async () => {
    const other = '<html><head></head><body><script type="module">x()</script><p>naïve</p></body></html>';
    expect(await run(cut(other, 5))).toBe(other);
    expect(await run([Buffer.from('<p>naïve</p>')])).toBe('<p>naïve</p>');
  });

  it('starts the held script after a frame, or after the timer in a tab that gets no frames', async () => {
    const starter = /<script nonce="n0nce">(\(function\(\)\{.*?\}\)\(\);)<\/script>/;
    const html = await run([Buffer.from(page)]);
    for (const frames of [true, false]) {
      const calls: string[] = [];
      const held = {
        nonce: 'n0nce',
        textContent: APP,
        replaceWith: (s: { type: string; nonce: string; textContent: string }) =>
          calls.push(`${s.type}|${s.nonce}|${s.textContent}`),
      };
      const me = { previousElementSibling: held, remove: () => calls.push('removed') };
      const timers: (() => void)[] = [];
      const rafs: (() => void)[] = [];
      const context = {
        document: { currentScript: me, createElement: () => ({ type: '', nonce: '', textContent: '' }) },
        requestAnimationFrame: (f: () => void) => rafs.push(f),
        setTimeout: (f: () => void) => timers.push(f),
      };
      runInNewContext(starter.exec(html)?.[1] as string, context);
      // Parsed: it has removed itself and started nothing yet.
      expect(calls).toEqual(['removed']);
      expect(rafs).toHaveLength(1);
      // A frame (then the timeout it sets), or only the fallback timer: started once either way.
      if (frames) for (const f of rafs) f();
      for (const f of timers.splice(0)) f();
      for (const f of timers.splice(0)) f();
      expect(calls).toEqual(['removed', `module|n0nce|${APP}`]);
    }
  });
});
