import type { SignupPages } from '../signup-schemas';
import type { OperatorConsolePages } from './operator-console';

/**
 * What loaders get as `context.platform` on the platform's own host (decision 103): the platform's
 * page functions, which belong to no store. Each platform area adds its interface here.
 */
export interface PlatformPageApi extends SignupPages, OperatorConsolePages {}
