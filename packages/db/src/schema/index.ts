export * from './audit';
export * from './catalog';
export * from './commerce';
export * from './content';
export * from './jobs';
export * from './store';
export * from './tenancy';
export * from './users';
