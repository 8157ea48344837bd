export { auditModule } from './audit.module';
export { auditRoutes } from './audit.routes';
export { type AuditRecordInput, type AuditService, createAuditService } from './audit.service';
export { type AuditFieldChange, auditChanges, isSecretField, REDACTED, secret } from './audit-diff';
