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
  needs: ['audit', 'drafts'],
  // The tax draft kind registers with the drafts service here (decision 120).
  create: ({ db, events }, { audit, drafts }) => ({ tax: createTaxService(db, { audit, events, drafts }) }),
  routes: (app, { tax }) => app.register(taxRoutes, { tax }),
  pages: ({ tax, drafts }) => [taxPages({ tax, drafts })],
});
