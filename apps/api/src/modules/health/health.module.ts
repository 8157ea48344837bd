import { defineModule } from '../../lib/module';
import { healthRoutes } from './health.routes';

declare module '../../lib/module' {
  interface ModuleServices {
    health: object;
  }
}

export const healthModule = defineModule({
  name: 'health',
  needs: [],
  create: () => ({}),
  routes: (app, _s, { database }) => app.register(healthRoutes, { ping: () => database.ping() }),
});
