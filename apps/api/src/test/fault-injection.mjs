// Preloaded (`node --import`) into the compiled server by the process drills, to make it meet what
// no request can make it meet any more: `?fault=reject` leaves a rejection nobody handles, in the
// request's own async context; `?fault=throw` throws an exception out of a timer. Nothing of this
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
