import { existsSync, readFileSync } from 'node:fs';
import { SERVER_FAULTS_FILE } from './playwright.config';

/**
 * Fails the run when the server met a fault during it (start-server.mjs notes them): an unhandled
 * rejection no longer ends the server (decision 071), so no test would see it otherwise.
 */
export default function globalTeardown() {
  const faults = existsSync(SERVER_FAULTS_FILE) ? readFileSync(SERVER_FAULTS_FILE, 'utf8').trim() : '';
  if (faults) throw new Error(`The server met a fault during the browser tests:\n${faults.slice(0, 4000)}`);
}
