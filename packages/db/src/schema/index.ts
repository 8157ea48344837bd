export * from './catalog';
export * from './content';
export * from './store';
export * from './tenancy';
export * from './users';
