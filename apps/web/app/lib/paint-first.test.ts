import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { paintFirst, type StartApp } from './paint-first';

async function run(chunks: Buffer[], startApp: StartApp = 'first-paint') {
  const t = paintFirst(startApp);
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
  it('takes the preloads out of the head, holds the app script and adds its starter, however the stream is cut', async () => {
    const whole = await run([Buffer.from(page)]);
    expect(whole).not.toContain('modulepreload" href');
    expect(whole).toContain('<head><title>Café Lámpara</title></head>');
    expect(whole).not.toContain('type="module" async');
    expect(whole).toContain(
      `<script nonce="n0nce" type="text/x-after-first-paint">${APP}</script><script nonce="n0nce">`,
    );
    // The starter carries the preloads it will add when it starts the app.
    expect(whole).toContain('var preloads=["/assets/entry.client-1.js","/assets/root-1.js"];');
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
});

/**
 * The starter, run in a sandbox with just the browser APIs it uses, each driven by the test:
 * performance entries, frames, timers, decoding, events.
 */
async function starterIn(opts: {
  timing: boolean;
  pictures: { onScreen: boolean; decodes?: boolean }[];
  startApp?: StartApp;
  focused?: 'body' | 'field';
  /** The text of the notifications region's <noscript>, as a browser with JavaScript parses it. */
  notices?: string;
}) {
  const html = await run([Buffer.from(page)], opts.startApp);
  const code = /<script nonce="n0nce">(\(function\(\)\{.*?\}\)\(\);)<\/script>/.exec(html)?.[1] as string;
  const calls: string[] = [];
  const held = {
    nonce: 'n0nce',
    textContent: APP,
    replaceWith: (s: { type: string; textContent: string }) => calls.push(`start ${s.type} ${s.textContent}`),
  };
  const timers: { f: () => void; ms: number }[] = [];
  const frames: (() => void)[] = [];
  const observers: { type: string; seen: (list: { getEntries(): unknown[] }) => void; off: boolean }[] = [];
  const listeners = new Map<string, (e: unknown) => void>();
  const decoders: (() => void)[] = [];
  const pictures = opts.pictures.map((p) => ({
    getBoundingClientRect: () =>
      p.onScreen
        ? { width: 200, top: 300, bottom: 500, left: 0, right: 200 }
        : { width: 200, top: 900, bottom: 1100, left: 0, right: 200 },
    decode: () =>
      new Promise<void>((resolve, reject) =>
        decoders.push(() => (p.decodes === false ? reject(new Error('bad')) : resolve())),
      ),
  }));
  class PerformanceObserver {
    static supportedEntryTypes = opts.timing ? ['element', 'paint', 'largest-contentful-paint'] : ['paint'];
    entry: (typeof observers)[number];
    constructor(seen: (typeof observers)[number]['seen']) {
      this.entry = { type: '', seen, off: false };
      observers.push(this.entry);
    }
    observe(o: { type: string; buffered: boolean }) {
      expect(o.buffered).toBe(true);
      this.entry.type = o.type;
    }
    disconnect() {
      this.entry.off = true;
    }
  }
  const body = {
    id: 'body',
    appendChild: (bar: { className: string; children: unknown[] }) =>
      calls.push(`bar ${bar.className} ${bar.children.length}`),
  };
  const document = {
    body,
    activeElement: opts.focused === 'field' ? { id: 'field' } : body,
    currentScript: { previousElementSibling: held, remove: () => calls.push('removed') },
    head: {
      appendChild: (l: { rel: string; href: string; nonce: string }) => calls.push(`${l.rel} ${l.href} ${l.nonce}`),
    },
    createElement: () => ({
      children: [] as unknown[],
      appendChild(c: unknown) {
        this.children.push(c);
      },
      setAttribute(k: string, v: string) {
        calls.push(`${k}=${v}`);
      },
      remove: () => calls.push('bar removed'),
    }),
    querySelector: (selector: string) => {
      expect(selector).toBe('noscript[data-notices]');
      return { textContent: opts.notices ?? '' };
    },
    querySelectorAll: (selector: string) => {
      expect(selector).toBe('img[elementtiming=first-paint]');
      return pictures;
    },
    addEventListener: (type: string, f: (e: unknown) => void, capture: boolean) => {
      expect(capture).toBe(true);
      listeners.set(type, f);
    },
    removeEventListener: (type: string, f: (e: unknown) => void, capture: boolean) => {
      expect(capture).toBe(true);
      if (listeners.get(type) === f) listeners.delete(type);
    },
  };
  const window: { PerformanceObserver: typeof PerformanceObserver; __takeHeldClicks?: () => unknown } = {
    PerformanceObserver,
  };
  runInNewContext(code, {
    Promise,
    window,
    document,
    innerHeight: 823,
    innerWidth: 412,
    requestAnimationFrame: (f: () => void) => frames.push(f),
    setTimeout: (f: () => void, ms: number) => timers.push({ f, ms }),
  });
  const report = (type: string, entries: unknown[]) => {
    for (const o of observers) if (o.type === type && !o.off) o.seen({ getEntries: () => entries });
  };
  return {
    calls,
    started: () => calls.filter((c) => c.startsWith('start')).length,
    /** Runs the timeouts of 0 ms that are due (not the 1.5 s fallback). */
    tick: () => {
      for (const t of timers.filter((x) => x.ms === 0)) t.f();
    },
    timers,
    fallback: () => timers.find((t) => t.ms === 1500)?.f(),
    frame: () => {
      for (const f of frames.splice(0)) f();
    },
    decodeAll: async () => {
      for (const d of decoders.splice(0)) d();
      await new Promise((r) => setImmediate(r));
    },
    firstContentfulPaint: () => report('paint', [{ name: 'first-paint' }, { name: 'first-contentful-paint' }]),
    presented: (i: number) => report('element', [{ element: pictures[i] }]),
    event: (type: string, target?: unknown, fields: Record<string, unknown> = {}) => {
      const e = {
        type,
        target,
        ...fields,
        prevented: false,
        stopped: false,
        preventDefault() {
          this.prevented = true;
        },
        stopImmediatePropagation() {
          this.stopped = true;
        },
      };
      listeners.get(type)?.(e);
      return e;
    },
    listeners,
    window,
    observers,
  };
}

describe('the starter on the dashboard (first paint)', () => {
  const app = `start module ${APP}`;
  const preloadsAdded = ['modulepreload /assets/entry.client-1.js n0nce', 'modulepreload /assets/root-1.js n0nce'];

  it('removes itself and starts nothing at parse time', async () => {
    const s = await starterIn({ timing: true, pictures: [{ onScreen: true }] });
    expect(s.calls).toEqual(['removed']);
  });

  it('waits until every first-paint picture on screen has been presented, then adds the preloads and starts the app', async () => {
    const s = await starterIn({
      timing: true,
      pictures: [{ onScreen: true }, { onScreen: true }, { onScreen: false }],
    });
    s.presented(0);
    s.tick();
    expect(s.started()).toBe(0);
    s.firstContentfulPaint();
    s.tick();
    expect(s.started()).toBe(0);
    // The third is below the fold: the browser will not report it, and it is not waited for.
    s.presented(1);
    s.tick();
    expect(s.calls).toEqual(['removed', ...preloadsAdded, app]);
    expect(s.observers.every((o) => o.off)).toBe(true);
    s.fallback();
    expect(s.started()).toBe(1);
  });

  it('starts at the first contentful paint on a page without a first-paint picture on screen', async () => {
    for (const pictures of [[], [{ onScreen: false }]]) {
      const s = await starterIn({ timing: true, pictures });
      s.tick();
      expect(s.started()).toBe(0);
      s.firstContentfulPaint();
      s.tick();
      expect(s.started()).toBe(1);
    }
  });

  it('without Element Timing: waits for the pictures to decode (or fail to) and two frames', async () => {
    const s = await starterIn({ timing: false, pictures: [{ onScreen: true }, { onScreen: true, decodes: false }] });
    s.frame();
    expect(s.started()).toBe(0);
    await s.decodeAll();
    s.frame();
    s.tick();
    expect(s.started()).toBe(0);
    s.frame();
    s.tick();
    expect(s.calls).toEqual(['removed', ...preloadsAdded, app]);
  });

  it('starts after 1.5 s whatever happens, and at once on the first touch or key', async () => {
    const slow = await starterIn({ timing: true, pictures: [{ onScreen: true }] });
    slow.fallback();
    expect(slow.started()).toBe(1);
    for (const type of ['pointerdown', 'keydown']) {
      const s = await starterIn({ timing: true, pictures: [{ onScreen: true }] });
      s.event(type);
      expect(s.started()).toBe(1);
      expect([...s.listeners.keys()]).toEqual(['click']);
    }
    // A pointer that only moves is not enough on the dashboard: it starts after its first paint anyway.
    const moved = await starterIn({ timing: true, pictures: [] });
    moved.event('pointermove');
    expect(moved.started()).toBe(0);
  });

  it('holds every click on a type="button" button for the app, in order, and stops holding once taken', async () => {
    const s = await starterIn({ timing: true, pictures: [{ onScreen: true }] });
    const tab = { id: 'tab' };
    const link = { closest: () => null };
    expect(s.event('click', link).stopped).toBe(false);
    const first = s.event('click', {
      closest: (sel: string) => (sel === 'button[type=button]:not([popovertarget])' ? { id: 'other' } : null),
    });
    const second = s.event('click', { closest: () => tab });
    expect([first.prevented, first.stopped, second.prevented, second.stopped]).toEqual([true, true, true, true]);
    expect(s.started()).toBe(1);
    // One bar for both presses, shown until the app takes them.
    expect(s.calls.filter((c) => c.startsWith('bar') || c.startsWith('aria'))).toEqual([
      'aria-hidden=true',
      'bar app-starting 1',
    ]);
    expect(s.window.__takeHeldClicks?.()).toEqual([{ id: 'other' }, tab]);
    expect(s.calls.at(-1)).toBe('bar removed');
    expect([...s.listeners.keys()]).toEqual([]);
    expect(s.window.__takeHeldClicks?.()).toEqual([]);
  });
});

describe('the starter on shop pages (intent)', () => {
  const intent = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'focusin', 'wheel'];

  it('starts nothing at the first paint, when the pictures are presented, on any timer, or on a scroll', async () => {
    const s = await starterIn({ startApp: 'intent', timing: true, pictures: [{ onScreen: true }] });
    s.firstContentfulPaint();
    s.presented(0);
    s.tick();
    s.frame();
    // A scroll-snapping row scrolls by itself as the page lays out: not the shopper's intent.
    s.event('scroll');
    expect(s.timers).toEqual([]);
    expect(s.observers).toEqual([]);
    expect(s.calls).toEqual(['removed']);
  });

  it('starts at the first sign of intent, adding the preloads once, and then stops listening for it', async () => {
    for (const type of intent) {
      const s = await starterIn({ startApp: 'intent', timing: true, pictures: [] });
      expect([...s.listeners.keys()].sort()).toEqual([...intent, 'click'].sort());
      s.event(type, undefined, { movementX: 2, movementY: 0 });
      s.event('pointermove', undefined, { movementX: 0, movementY: 1 });
      expect(s.calls).toEqual([
        'removed',
        'modulepreload /assets/entry.client-1.js n0nce',
        'modulepreload /assets/root-1.js n0nce',
        `start module ${APP}`,
      ]);
      expect([...s.listeners.keys()]).toEqual(['click']);
    }
  });

  it('a pointermove without movement (the page laid out under a pointer at rest) is not intent', async () => {
    const s = await starterIn({ startApp: 'intent', timing: true, pictures: [] });
    s.event('pointermove', undefined, { movementX: 0, movementY: 0 });
    expect(s.started()).toBe(0);
    s.event('pointermove', undefined, { movementX: 0, movementY: -1 });
    expect(s.started()).toBe(1);
  });

  it('starts at once when a field was focused while the page streamed, or the page says a notice', async () => {
    const s = await starterIn({ startApp: 'intent', timing: true, pictures: [], focused: 'field' });
    expect(s.started()).toBe(1);
    const saved = await starterIn({ startApp: 'intent', timing: true, pictures: [], notices: '<div>Saved.</div>' });
    expect(saved.started()).toBe(1);
    const quiet = await starterIn({ startApp: 'intent', timing: true, pictures: [], notices: '' });
    expect(quiet.started()).toBe(0);
  });

  it('holds a click on a type="button" button for the app, and starts it', async () => {
    const s = await starterIn({ startApp: 'intent', timing: true, pictures: [] });
    const thumb = { id: 'thumb' };
    expect(s.event('click', { closest: () => thumb }).prevented).toBe(true);
    expect(s.started()).toBe(1);
    expect(s.window.__takeHeldClicks?.()).toEqual([thumb]);
    expect([...s.listeners.keys()]).toEqual([]);
  });
});
