/**
 * The sensitive admin operations the audit log records. The web app names each in every interface
 * language (admin.audit.actions.*; a test checks that none is missing), never the raw key.
 */
export const AUDIT_ACTIONS = [
  'addBook',
  'download',
  'getUserToken',
  'setUser',
  'retryUpload',
  'engineSettings',
  'aiModelSettings',
  'aiModelReset',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
