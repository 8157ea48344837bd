import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * Paint first, hydrate after: two changes to the document React Router writes, made on its way out.
 *
 * 1. The module preloads in the head get `fetchpriority="low"`. The page is server-rendered, so the
 *    first paint needs the document, the stylesheet and the LCP image, not the ~125 KB of React and
 *    route modules. At Chrome's default (High) the two dozen preloads share a slow mobile link with
 *    the stylesheet and the LCP image; at Low they load right after.
 * 2. The inline module script that starts the app (route modules, then hydration) is held, inert,
 *    until the browser has painted once, and then started. Left alone it runs whenever its imports
 *    arrive, which is often before the first paint: the browser then paints only after compiling
 *    and hydrating, and a shopper on a phone looks at a blank screen for that time although the
 *    HTML was complete. A tab opened in the background gets no frames, so a timer starts it too.
 *
 * React Router's `<Scripts>` has no option for either. The rewrite is exact-match on its output;
 * if a future version writes something else, the page passes through unchanged (and
 * paint-first.test.ts fails, saying so).
 */
const MODULEPRELOAD = /<link rel="modulepreload"/g;
const APP_SCRIPT = /<script nonce="([^"]*)" type="module" async="">/;
const HELD_TYPE = 'text/x-after-first-paint';

/** Runs at parse time: removes itself (React must not meet it when hydrating), then waits a frame. */
const STARTER = `(function(){var me=document.currentScript,held=me.previousElementSibling,done=false;me.remove();function start(){if(done)return;done=true;var s=document.createElement("script");s.type="module";s.nonce=held.nonce;s.textContent=held.textContent;held.replaceWith(s)}requestAnimationFrame(function(){setTimeout(start,0)});setTimeout(start,1500)})();`;

export function paintFirst(): Transform {
  // A chunk may end inside a multi-byte character or inside a tag: decode across chunks, and hold
  // back the text from the last "<" until the tag is whole.
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let phase: 'head' | 'body' | 'done' = 'head';

  function rewrite(final: boolean): string {
    let out = '';
    if (phase === 'head') {
      const end = pending.indexOf('</head>');
      if (end === -1) return final ? take(pending.length) : '';
      out += take(end).replace(MODULEPRELOAD, '$& fetchpriority="low"');
      phase = 'body';
    }
    if (phase === 'body') {
      const open = APP_SCRIPT.exec(pending);
      const close = open ? pending.indexOf('</script>', open.index) : -1;
      if (open && close !== -1) {
        const nonce = open[1] as string;
        const code = pending.slice(open.index + open[0].length, close);
        out += `${take(open.index)}<script nonce="${nonce}" type="${HELD_TYPE}">${code}</script><script nonce="${nonce}">${STARTER}</script>`;
        take(close + '</script>'.length - open.index);
        phase = 'done';
      } else if (final) {
        out += take(pending.length);
      } else {
        // Pass on everything before a tag that may still be arriving.
        const keep = open ? open.index : pending.lastIndexOf('<');
        out += take(keep === -1 ? pending.length : keep);
      }
    }
    if (phase === 'done') out += take(pending.length);
    return out;
  }

  function take(n: number): string {
    const head = pending.slice(0, n);
    pending = pending.slice(n);
    return head;
  }

  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      // Still through the decoder once done: it may hold the first byte of a character.
      if (phase === 'done') return callback(null, decoder.write(chunk) || undefined);
      pending += decoder.write(chunk);
      const out = rewrite(false);
      callback(null, out || undefined);
    },
    flush(callback) {
      pending += decoder.end();
      const out = rewrite(true);
      callback(null, out || undefined);
    },
  });
}
