export * from './client';
export { DataDirLockedError } from './lock';
export * as schema from './schema/index';
export { hashPassword, verifyPassword } from './password';
