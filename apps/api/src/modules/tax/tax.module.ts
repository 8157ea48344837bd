import { defineModule } from '../../lib/module';
import { taxPages } from './tax.pages';
import { taxRoutes } from './tax.routes';
import { createTaxService, type TaxService } from './tax.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /** The store's tax settings and rates (decision 116); checkout reads them through its tables. */
    tax: { tax: TaxService };
  }
}

export const taxModule = defineModule({
  name: 'tax',
  needs: ['audit'],
  create: ({ db, events }, { audit }) => ({ tax: createTaxService(db, { audit, events }) }),
  routes: (app, { tax }) => app.register(taxRoutes, { tax }),
  pages: ({ tax }) => [taxPages({ tax })],
});
