import { defineModule } from '../../lib/module';
import { auditRoutes } from './audit.routes';
import { type AuditService, createAuditService } from './audit.service';

declare module '../../lib/module' {
  interface ModuleServices {
    audit: { audit: AuditService };
  }
}

export const auditModule = defineModule({
  name: 'audit',
  needs: [],
  create: ({ db }) => ({ audit: createAuditService(db) }),
  routes: (app, { audit }) => app.register(auditRoutes, { audit }),
});
