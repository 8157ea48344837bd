import { defineModule } from '../../lib/module';
import { consolePages } from './operator-console.pages';
import { supportAccessPages } from './support-access.pages';

declare module '../../lib/module' {
  interface ModuleServices {
    /** Pages only: the operator console's and support access's page functions (decision 107). */
    'operator-console': Record<string, never>;
  }
}

/**
 * The operator console's page functions on the platform host, and support access's on a store's
 * dashboard. No service or table of its own: it adapts the operator module's services to the
 * pages' forms, as a module's `*.pages.ts` does for its own.
 */
export const operatorConsoleModule = defineModule({
  name: 'operator-console',
  needs: ['operator'],
  create: () => ({}),
  // Moving a store needs the store-move module: without it the store page shows no database.
  optional: ['store-move'],
  platformPages: ({ operatorAuth, operatorMoves, operatorStores, platformAudit, supportAccess, storeMove }) => [
    consolePages({
      auth: operatorAuth,
      stores: operatorStores,
      ...(storeMove ? { moves: operatorMoves } : {}),
      audit: platformAudit,
      support: supportAccess,
      createStore: (req, input) => operatorStores.createStore(req, input),
    }),
  ],
  pages: ({ supportAccess }) => [supportAccessPages({ support: supportAccess })],
});
