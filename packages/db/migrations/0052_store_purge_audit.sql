-- A store's purge (decision 122) erases its audit log with the rest of its rows. The append-only
-- rule (decision 019) gives way only inside the purge's transaction, which names the one store it
-- erases (set_config('app.purging_tenant', <tenant>, true)), and only for that store's entries:
-- an update, a truncate, or a delete outside a purge is refused as before, and the platform's own
-- audit log (which shares the statement trigger's function) is never deleted.
CREATE OR REPLACE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND TG_TABLE_NAME = 'audit_log'
     AND coalesce(current_setting('app.purging_tenant', true), '') <> '' THEN
    RETURN NULL;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege', HINT = 'Audit entries are never changed or deleted.';
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_log_purge_only_its_store() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.tenant_id IS DISTINCT FROM current_setting('app.purging_tenant', true) THEN
    RAISE EXCEPTION 'audit_log is append-only: only the purge of its store deletes an entry'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_purge_only_its_store BEFORE DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_purge_only_its_store();
