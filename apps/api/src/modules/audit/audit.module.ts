import { defineModule } from '../../lib/module';
import { auditRoutes } from './audit.routes';
import { type AuditService, createAuditService } from './audit.service';
import { auditFromHome } from './audit-from-home';

declare module '../../lib/module' {
  interface ModuleServices {
    audit: {
      audit: AuditService;
      /** For writers on the home database: a moved store's entries go where it lives (audit-from-home.ts). */
      auditFromHome: Pick<AuditService, 'record'>;
    };
  }
}

export const auditModule = defineModule({
  name: 'audit',
  needs: [],
  create: ({ db, stores, log }) => {
    const audit = createAuditService(db);
    return { audit, auditFromHome: auditFromHome(audit, stores, log) };
  },
  routes: (app, { audit }) => app.register(auditRoutes, { audit }),
});
