import { defineModule } from '../../lib/module';
import { operatorRoutes } from './operator.routes';
import { operatorArchiveRoutes } from './operator-archive.routes';
import { createOperatorAuth, type OperatorAuth } from './operator-auth.service';
import { operatorMoveRoutes } from './operator-move.routes';
import { createOperatorMoves, type OperatorMoves } from './operator-moves.service';
import { createOperatorStores, type OperatorStores } from './operator-stores.service';
import { createPlatformAudit, type PlatformAudit } from './platform-audit.service';
import { supportAccessRoutes } from './support-access.routes';
import { createSupportAccess, type SupportAccess } from './support-access.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /**
     * The platform's operators (decision 101): their accounts, sessions and tokens, the stores as
     * the console sees them, the platform's audit log, and the owners' support-access grants.
     */
    operator: {
      operatorAuth: OperatorAuth;
      /** The deployment's databases and the stores on each (decision 123). */
      operatorMoves: OperatorMoves;
      operatorStores: OperatorStores;
      platformAudit: PlatformAudit;
      supportAccess: SupportAccess;
    };
  }
}

export const operatorModule = defineModule({
  name: 'operator',
  needs: ['audit', 'auth', 'store-lifecycle'],
  optional: ['cancel-request', 'signup', 'store-archive', 'store-move'],
  create({ db, config, events, sessionSecret, secrets, linkOrigin, stores }, { audit, auth, storeLifecycle }, later) {
    const platformAudit = createPlatformAudit(db);
    const operatorAuth = createOperatorAuth(db, {
      audit: platformAudit,
      requireTotp: config.NODE_ENV === 'production',
      secret: sessionSecret,
      secrets,
    });
    const supportAccess = createSupportAccess({ db, events, audit, platformAudit, linkOrigin, stores });
    const operatorStores = createOperatorStores(db, {
      audit: platformAudit,
      storeAudit: audit,
      stores,
      storeLifecycle,
      auth,
      get cancelRequests() {
        return later().cancelRequests;
      },
      get provisionStore() {
        return later().provisionStore;
      },
      get storeArchive() {
        return later().storeArchive;
      },
      supportGrant: (tenantId) => supportAccess.liveGrant(tenantId),
    });
    const operatorMoves = createOperatorMoves({
      stores,
      db,
      audit: platformAudit,
      get move() {
        return later().storeMove;
      },
    });
    return { operatorAuth, operatorMoves, operatorStores, platformAudit, supportAccess };
  },
  async routes(
    app,
    {
      operatorAuth,
      operatorMoves,
      operatorStores,
      platformAudit,
      supportAccess,
      storeArchive,
      storeLifecycle,
      storeMove,
    },
    { config, db, memory },
  ) {
    await app.register(operatorRoutes, {
      auth: operatorAuth,
      stores: operatorStores,
      audit: platformAudit,
      support: supportAccess,
      config,
      memory,
    });
    await app.register(supportAccessRoutes, { support: supportAccess });
    if (storeArchive) {
      await app.register(operatorArchiveRoutes, {
        archive: storeArchive,
        lifecycle: storeLifecycle,
        audit: platformAudit,
        auth: operatorAuth,
        config,
        db,
      });
    }
    if (storeMove) {
      await app.register(operatorMoveRoutes, {
        move: storeMove,
        moves: operatorMoves,
        auth: operatorAuth,
        config,
      });
    }
  },
});
