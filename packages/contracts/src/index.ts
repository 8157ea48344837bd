export * from './catalog';
export * from './envelope';
export * from './errors';
export * from './money';
export * from './products';
export * from './store';
export * from './storefront';
export * from './tenant';
