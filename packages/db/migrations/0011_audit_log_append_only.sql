-- The audit log is append-only (decision 019): the database itself refuses to change or remove an
-- entry, whatever the application does. Statement triggers, so even a statement that matches no
-- row is refused, and TRUNCATE too. (A superuser can still disable triggers; in production the app's
-- role should also hold only INSERT and SELECT on this table.)
CREATE OR REPLACE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege', HINT = 'Audit entries are never changed or deleted.';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
