import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode, ErrorEnvelope } from '@app/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './errors';
import { newRequestId } from './request-id';

/**
 * Fastify's `frameworkErrors`: the URL could not be routed (bad percent-encoding, a parameter over
 * maxParamLength). No onRequest hook has run, so the request id header is set here; the message
 * never repeats the address, which may carry anything.
 */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  // Nor has helmet's: the one of its headers that matters for a JSON answer.
  reply.header('x-request-id', req.id).header('x-content-type-options', 'nosniff');
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendError(reply, 414, 'BAD_REQUEST', 'The address is too long.');
  }
  if (err.code === 'FST_ERR_BAD_URL') {
    return sendError(reply, 400, 'BAD_REQUEST', 'The address is not correctly encoded.');
  }
  req.log.error({ err }, 'routing failed');
  return sendError(reply, 500, 'INTERNAL', 'Something went wrong, please try again.');
}

const CLIENT_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'REQUEST_TIMEOUT',
    message: 'The request took too long to arrive. Please try again.',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The request headers are larger than this server accepts.',
  },
};

/**
 * Fastify's `clientErrorHandler`: Node could not read a request (timeout, oversized headers, bytes
 * that are not HTTP). There is no request object, so the answer is written on the socket by hand,
 * with a request id of its own, in the same envelope as every other failure.
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const known = (err.code && CLIENT_ERRORS[err.code]) || {
    status: 400,
    code: 'BAD_REQUEST' as const,
    message: 'The request could not be read.',
  };
  const requestId = newRequestId();
  this.log.info({ code: err.code, requestId, status: known.status }, 'client error');
  // As Node does: nothing is written over a response whose head already left.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const envelope: ErrorEnvelope = {
      error: true,
      code: known.code,
      message: known.message,
      errors: [known.message],
      data: { message: known.message },
      requestId,
    };
    const body = JSON.stringify(envelope);
    socket.write(
      `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(err);
}
