import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

const MODULEPRELOAD = /<link rel="modulepreload"/g;

/**
 * Marks the page's module preloads `fetchpriority="low"`.
 *
 * Why: the HTML is server-rendered, so the first paint needs the document, the stylesheet and the
 * banner image, not the ~125 KB of React and route modules that hydrate it. At Chrome's default
 * (High) the two dozen preloads share a slow mobile link with the stylesheet and the LCP image and
 * push both back; Lighthouse's simulation counts them as render-blocking for the same reason. At
 * Low they load right after, and hydration follows. React Router's `<Scripts>` has no prop for it,
 * so the document head is rewritten on its way out: the text up to `</head>` is held (it is in the
 * shell's first flush anyway) and everything after passes through untouched.
 */
export function lowPriorityModulePreloads(): Transform {
  // A chunk may end inside a multi-byte character: decode across chunks.
  const decoder = new StringDecoder('utf8');
  let head = '';
  let done = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (done) return callback(null, chunk);
      head += decoder.write(chunk);
      const end = head.indexOf('</head>');
      if (end === -1) return callback();
      done = true;
      const out = head.slice(0, end).replace(MODULEPRELOAD, '$& fetchpriority="low"') + head.slice(end);
      head = '';
      callback(null, out);
    },
    flush(callback) {
      callback(null, done ? undefined : head + decoder.end());
    },
  });
}
