// The zod-free part of the contracts, for browser code (see display.ts).
export * from './address-fields';
export * from './analytics-ranges';
export * from './catalog-options';
export * from './chat';
export * from './csrf';
export * from './display';
export * from './media-limits';
export * from './messages';
export * from './money';
export * from './order-display';
export * from './product-csv';
export * from './product-import-help';
export * from './product-list-options';
export * from './return-reasons';
export * from './staff-permissions';
export * from './theme-contrast';
