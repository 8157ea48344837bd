import { defineModule } from '../../lib/module';
import { customersPages } from './customers.pages';
import { customersRoutes } from './customers.routes';
import { type CustomersService, createCustomersService } from './customers.service';

declare module '../../lib/module' {
  interface ModuleServices {
    customers: { customers: CustomersService };
  }
}

export const customersModule = defineModule({
  name: 'customers',
  needs: ['audit', 'auth'],
  create: ({ db }, { audit, auth }) => ({ customers: createCustomersService(db, { audit, auth }) }),
  routes: (app, { customers }) => app.register(customersRoutes, { customers }),
  pages: ({ customers }) => [customersPages({ customers })],
});
