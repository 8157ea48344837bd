export * from './client';
export { insertDefaultVariants } from './default-variants';
export { insertWhere } from './insert-where';
export { DataDirLockedError } from './lock';
export { hashPassword, verifyPassword } from './password';
export * as schema from './schema/index';
export { STARTING_TAX_RATES } from './starting-taxes';
export { isDatabaseUnavailable } from './unavailable';
export { variantOptionsOf, variantOptionsSql } from './variant-options';
