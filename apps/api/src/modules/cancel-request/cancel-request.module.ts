import { defineModule } from '../../lib/module';
import { cancelRequestPages } from './cancel-request.pages';
import { cancelRequestRoutes } from './cancel-request.routes';
import { type CancelRequestService, createCancelRequestService } from './cancel-request.service';

declare module '../../lib/module' {
  interface ModuleServices {
    'cancel-request': { cancelRequests: CancelRequestService };
  }
}

export const cancelRequestModule = defineModule({
  name: 'cancel-request',
  needs: ['mail', 'audit'],
  create: ({ db, events }, { audit, mailer }) => ({
    cancelRequests: createCancelRequestService(db, { events, audit, mailer }),
  }),
  routes: (app, { cancelRequests }) => app.register(cancelRequestRoutes, { cancelRequests }),
  pages: ({ cancelRequests }) => [cancelRequestPages({ cancelRequests })],
});
