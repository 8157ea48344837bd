import { randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { requestScope } from '../lib/request-scope';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const VALID = /^[A-Za-z0-9]{16}$/;

/** Request ids are random, 16 alphanumeric characters. */
export function newRequestId(): string {
  let id = '';
  for (let i = 0; i < 16; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

/** An incoming id is kept only if it has our form, so logs cannot be forged or flooded. */
export function requestIdFor(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  const id = value && VALID.test(value) ? value : newRequestId();
  // Under the server's per-request scope (server.ts), so a rejection nobody handled names its request.
  const scope = requestScope.getStore();
  if (scope) scope.requestId = id;
  return id;
}
