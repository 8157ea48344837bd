export { operatorModule } from './operator.module';
export { OPERATOR_SIGN_IN_LIMITS, type OperatorAuth } from './operator-auth.service';
export { clearedOperatorSessionCookie, operatorSessionCookie } from './operator-guard';
export type { OperatorMoves } from './operator-moves.service';
export type { OperatorPrincipal, OperatorRequest } from './operator-principal';
export { createOperatorStores, type OperatorStores } from './operator-stores.service';
export type { PlatformAudit } from './platform-audit.service';
export { SUPPORT_TOKEN_PREFIX, type SupportAccess } from './support-access.service';
