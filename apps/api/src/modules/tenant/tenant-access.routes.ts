import { constraintsRequestSchema, dataEnvelope, storeVisibilitySchema } from '@app/contracts';
import type { App } from '../../lib/app-types';
import { changeErrors } from '../../lib/app-types';
import type { StoreVisibilityService } from './store-visibility';

/** The clients' tenant constraints: the store's visibility (decision 027). */
export async function tenantAccessRoutes(app: App, { visibility }: { visibility: StoreVisibilityService }) {
  for (const [path, isPublic] of [
    ['/api/tenant/add/constraints', false],
    ['/api/tenant/remove/constraints', true],
  ] as const) {
    app.post(
      path,
      {
        config: { permission: 'settings' },
        schema: {
          tags: ['tenant'],
          summary: isPublic
            ? 'Remove access constraints: every store of the tenant becomes public'
            : 'Add access constraints: every store of the tenant becomes private (visitors see only login and registration)',
          description:
            "The store owner only (staff with the settings permission get 403). tenantId must be the host's own tenant; another tenant's id answers 404.",
          body: constraintsRequestSchema,
          response: { 200: dataEnvelope(storeVisibilitySchema), ...changeErrors },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'private, no-store');
        return { data: await visibility.setPublic(req.ctx, req.body.tenantId, isPublic) };
      },
    );
  }
}
