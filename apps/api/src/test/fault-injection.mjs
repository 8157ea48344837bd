// Preloaded (`node --import`) into the compiled server by the process drills, to make it meet what
// no request can make it meet any more: `?fault=reject` leaves a rejection nobody handles, in the
// request's own async context; `?fault=throw` throws an exception out of a timer;
// FAULT_EXIT_AT_START=1 makes the server exit as it starts. Nothing of this
// is in the server itself.
import { ServerResponse } from 'node:http';

const writeHead = ServerResponse.prototype.writeHead;
ServerResponse.prototype.writeHead = function (...args) {
  const fault = new URL(this.req?.url ?? '/', 'http://x').searchParams.get('fault');
  if (fault === 'reject') Promise.reject(new Error('a rejection nobody handles'));
  if (fault === 'throw') {
    setTimeout(() => {
      throw new Error('an exception nobody catches');
    });
  }
  return writeHead.apply(this, args);
};

// FAULT_EXIT_AT_START=1: the server dies as it starts, every time (a crash loop for the supervisor).
if (process.env.FAULT_EXIT_AT_START === '1' && process.argv[1]?.endsWith('server.mjs')) {
  console.error('fault injection: exiting at start');
  process.exit(1);
}
