export { changeStock, type StockChange, type StockMoved, type StockResult } from './stock';
