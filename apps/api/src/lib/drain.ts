import { Server as NetServer } from 'node:net';
import { sendError } from '../plugins/errors';
import type { App } from './app-types';

/** How often the drain looks for connections that have gone idle. */
const DRAIN_TICK_MS = 50;
/**
 * After the signal the server keeps accepting this long (answering with `Connection: close`, and
 * /readyz with 503 so load balancers stop sending): a connection a client opened just before the
 * signal may not have reached the accept queue yet, and closing the listening socket resets
 * everything still queued there (ECONNRESET for requests nobody read).
 */
export const DEFAULT_LINGER_MS = 1_000;
/**
 * A connection accepted at the last moment may not have had its request read yet: Node counts it
 * as idle until then. It gets this long after the listener closed before idle connections are closed.
 */
const SETTLE_MS = 200;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Timers run before the event loop reads sockets: after a busy stretch, a connection whose request
// waits unread would look idle. An immediate runs after that read.
const afterIo = () => new Promise((r) => setImmediate(r));

/**
 * SIGTERM's first step (decision 023): answer everything accepted, then let no connection stay open.
 * `http.Server.close()` is not used for it: its pre-close closes every connection without a request
 * in progress, including ones accepted a moment ago whose request is not parsed yet, so their
 * clients see ECONNRESET. Instead: linger briefly, close the listening socket only, answer what
 * arrives on open connections (each answer ends its connection), and close a connection only once
 * it is idle after the settle time.
 */
export function createDrain(app: App, opts: { lingerMs?: number } = {}) {
  const lingerMs = opts.lingerMs ?? DEFAULT_LINGER_MS;
  let draining = false;
  app.addHook('onRequest', async (req, reply) => {
    if (!draining) return;
    reply.header('connection', 'close');
    if (req.url === '/readyz') {
      return sendError(reply, 503, 'UNAVAILABLE', 'The server is shutting down.');
    }
  });

  const openConnections = () => new Promise<number>((resolve) => app.server.getConnections((_e, n) => resolve(n ?? 0)));

  return {
    get draining() {
      return draining;
    },
    /** Resolves once the listener is closed and no connection is left open. */
    async drain(): Promise<void> {
      if (draining) return;
      draining = true;
      await sleep(lingerMs);
      await afterIo();
      NetServer.prototype.close.call(app.server);
      const closedAt = Date.now();
      for (;;) {
        await afterIo();
        if ((await openConnections()) === 0) return;
        if (Date.now() - closedAt >= SETTLE_MS) app.server.closeIdleConnections();
        await sleep(DRAIN_TICK_MS);
      }
    },
  };
}
