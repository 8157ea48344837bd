import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request a piece of work belongs to, for what outlives the request's own code: the server
 * (server.ts) runs each HTTP request inside a scope, the request id is written into it when
 * Fastify makes it (plugins/request-id.ts), and an unhandled rejection, which Node reports in the
 * async context of the promise that rejected, is logged with that id.
 */
export const requestScope = new AsyncLocalStorage<{ requestId?: string }>();
