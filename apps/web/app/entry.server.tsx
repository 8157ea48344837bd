import { PassThrough, pipeline } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import type { RenderToPipeableStreamOptions } from 'react-dom/server';
import { renderToPipeableStream } from 'react-dom/server';
import { type AppLoadContext, type EntryContext, ServerRouter } from 'react-router';
import { NonceContext } from './lib/nonce';
import { paintFirst, type StartApp } from './lib/paint-first';

export const streamTimeout = 5_000;

/**
 * React Router's Node entry, plus the per-response CSP nonce: every inline script React writes
 * carries it, so the page's policy can forbid all other inline script.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.nonce;
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get('user-agent');
    // Crawlers get the whole document at once; people get the shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady';
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          pipe(body);
          // pipeline, not .pipe: a shopper who leaves mid-page cancels the stream, and the
          // resulting premature-close errors need a listener, or they end the whole process
          // (apps/api/src/modules/storefront/page-streams.test.ts). Nothing else is to be done then.
          const painted = paintFirst(startAppFor(routerContext));
          pipeline(body, painted, () => {});
          // The pipeline drops its own listeners once it has finished, and may destroy `painted` with
          // its premature-close error just after: a listener of our own keeps that from being uncaught.
          painted.on('error', () => {});
          resolve(
            new Response(createReadableStreamFromReadable(painted), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}

/**
 * When a page starts its app (paint-first.ts): a route may say so in its `handle` (`{ startApp }`,
 * the innermost one wins); shop pages start at the shopper's first intent.
 */
function startAppFor(routerContext: EntryContext): StartApp {
  const said = routerContext.staticHandlerContext.matches
    .map((m) => (m.route.handle as { startApp?: StartApp } | undefined)?.startApp)
    .filter((s) => s !== undefined);
  return said.at(-1) ?? 'intent';
}
