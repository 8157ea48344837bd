import {
  dataEnvelope,
  OPERATOR_API_PREFIX as P,
  platformDatabasesSchema,
  storeMoveRequestSchema,
  storeMoveSchema,
  storePlacementSchema,
  tenantIdParamsSchema,
} from '@app/contracts';
import type { App } from '../../lib/app-types';
import { AppError } from '../../lib/errors';
import type { BuildOptions } from '../../lib/module';
import { sendRefusal } from '../../plugins/errors';
import { platformContext } from '../store-archive/index';
import type { StoreMoveService } from '../store-move/index';
import type { OperatorAuth } from './operator-auth.service';
import { operatorGuard, operatorOf } from './operator-guard';
import type { OperatorMoves } from './operator-moves.service';
import { operatorErrors as errors, noStore, operatorTags as tags } from './operator-route-kit';

/** The operator moves a store to another of the deployment's databases (decision 123). */
export async function operatorMoveRoutes(
  app: App,
  opts: {
    move: StoreMoveService;
    moves: OperatorMoves;
    auth: OperatorAuth;
    config: BuildOptions['config'];
  },
) {
  const { move, moves } = opts;
  app.addHook('onRequest', operatorGuard(opts.auth, opts.config));

  app.post(
    `${P}/stores/:tenantId/move`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: 'Starts moving a store to another database (a job), or answers the move under way',
        description:
          'Copies the store to the named database while it keeps selling, catches up with what changed ' +
          "meanwhile, holds the store's writes for at most a few seconds, switches it and clears the old " +
          'copy (decision 123). 404 for an unknown store; 422 UNKNOWN_DATABASE for a database not configured ' +
          '(`STORE_DATABASES`); 409 ALREADY_THERE, MOVE_UNDER_WAY (another store is moving off the same ' +
          'database) or TARGET_NOT_EMPTY. The reason (required, 1 to 500 characters) is recorded with the move in ' +
          'the platform audit log.',
        params: tenantIdParamsSchema,
        body: storeMoveRequestSchema,
        response: { 200: dataEnvelope(storeMoveSchema), ...errors },
      },
    },
    async (req, reply) => {
      noStore(reply);
      const started = await moves.start(operatorOf(req), req.params.tenantId, req.body);
      if (!started.ok) return sendRefusal(reply, started);
      return { data: started.value };
    },
  );

  app.get(
    `${P}/stores/:tenantId/placement`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: "The database a store is on, the deployment's databases, and the store's latest move",
        params: tenantIdParamsSchema,
        response: { 200: dataEnvelope(storePlacementSchema), ...errors },
      },
    },
    async (req, reply) => {
      noStore(reply);
      const ctx = platformContext(req.params.tenantId);
      if (!(await move.exists(req.params.tenantId))) throw AppError.notFound('There is no such store.');
      return { data: { ...move.placement(req.params.tenantId), latestMove: await move.latest(ctx) } };
    },
  );

  app.get(
    `${P}/databases`,
    {
      config: { tenant: false, operator: 'signed-in' },
      schema: {
        tags,
        summary: "The deployment's databases, and how many stores each holds",
        description:
          'The home database (`main`, `DATABASE_URL`) first, then those `STORE_DATABASES` names, each with the ' +
          'number of stores placed there (purged stores left out). A name stores are placed on that ' +
          '`STORE_DATABASES` no longer lists is shown with `configured: false`. A PGlite deployment has only ' +
          '`main` (decision 123).',
        response: { 200: dataEnvelope(platformDatabasesSchema), ...errors },
      },
    },
    async (_req, reply) => {
      noStore(reply);
      return { data: await moves.databases() };
    },
  );
}
