import { defineModule } from '../../../lib/module';
import { inventoryPages } from './inventory.pages';
import { inventoryRoutes } from './inventory.routes';
import { createInventoryService, createThresholds, type InventoryService, type Thresholds } from './inventory.service';

declare module '../../../lib/module' {
  interface ModuleServices {
    /** Stock, and the store's low-stock threshold (the dashboard, inventory and "only N left"). */
    inventory: { inventory: InventoryService; thresholds: Thresholds };
  }
}

export const inventoryModule = defineModule({
  name: 'inventory',
  needs: ['audit'],
  create({ db, events }, { audit }) {
    const thresholds = createThresholds(db);
    return { thresholds, inventory: createInventoryService(db, { audit, events }, thresholds) };
  },
  routes: (app, { inventory }) => app.register(inventoryRoutes, { inventory }),
  pages: ({ inventory }) => [inventoryPages({ inventory })],
  events: ({ thresholds }) => ({
    'catalog.changed': ({ tenantId }) => thresholds.forget(tenantId),
    'settings.changed': ({ tenantId }) => thresholds.forget(tenantId),
    'events.missed': () => thresholds.clear(),
  }),
});
