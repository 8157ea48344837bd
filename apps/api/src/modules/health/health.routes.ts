import { errorEnvelopeSchema } from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { AppError, DATABASE_RETRY_AFTER_S } from '../../lib/errors';

/** Liveness and readiness for load balancers and orchestrators. */
export async function healthRoutes(app: App, { ping }: { ping: () => Promise<void> }) {
  app.get(
    '/healthz',
    {
      config: { tenant: false },
      schema: {
        tags: ['health'],
        summary: 'The process is up',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      config: { tenant: false },
      schema: {
        tags: ['health'],
        summary: 'The database answers',
        response: { 200: z.object({ status: z.literal('ready') }), 503: errorEnvelopeSchema },
      },
    },
    async () => {
      try {
        await ping();
      } catch {
        throw new AppError(503, 'UNAVAILABLE', 'The database is not reachable.', undefined, {
          'retry-after': String(DATABASE_RETRY_AFTER_S),
        });
      }
      return { status: 'ready' as const };
    },
  );
}
