import type { FastifyInstance } from 'fastify';

/**
 * Posts a page's form as a browser without JavaScript would: urlencoded, from the page's own origin
 * (the CSRF check compares it), with the session's cookies.
 */
export const postForm = (
  app: Pick<FastifyInstance, 'inject'>,
  host: string,
  url: string,
  cookie: string,
  fields: Record<string, string>,
) =>
  app.inject({
    method: 'POST',
    url,
    headers: {
      host,
      origin: `http://${host}`,
      cookie,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams(fields).toString(),
  });
