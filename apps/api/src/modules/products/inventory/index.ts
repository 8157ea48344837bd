export { inventoryModule } from './inventory.module';
export { inventoryPages } from './inventory.pages';
export { inventoryRoutes } from './inventory.routes';
export { createInventoryService, createThresholds, type InventoryService, type Thresholds } from './inventory.service';
export { changeStock, changeStockAlong, type StockChange, type StockMoved, type StockResult } from './stock';
