CREATE TABLE "store_move_changes" (
	"id" bigserial NOT NULL,
	"tenant_id" text NOT NULL,
	"table_name" text NOT NULL,
	"key" jsonb NOT NULL,
	CONSTRAINT "store_move_changes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "store_moves_under_way" (
	"tenant_id" text NOT NULL,
	"phase" text NOT NULL,
	"target" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_moves_under_way_tenant_id_pk" PRIMARY KEY("tenant_id"),
	CONSTRAINT "store_moves_phase_ck" CHECK ("store_moves_under_way"."phase" IN ('copying', 'switching'))
);
--> statement-breakpoint
CREATE TABLE "store_placements" (
	"tenant_id" text NOT NULL,
	"database" text NOT NULL,
	"moved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_placements_tenant_id_pk" PRIMARY KEY("tenant_id")
);
--> statement-breakpoint
ALTER TABLE "store_placements" ADD CONSTRAINT "store_placements_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "store_move_changes_id_idx" ON "store_move_changes" USING btree ("id");--> statement-breakpoint
-- The capture trigger of a store move (decision 123). A move attaches it to each of the store's
-- tables in the database the store leaves (arguments: the table's primary key columns) and detaches
-- it when done; for rows of a store being moved it records their keys while the copy runs, and
-- refuses the store's writes once the switch has begun (a write then would be left behind).
CREATE FUNCTION store_move_capture() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tid text;
  ph text;
  old_key jsonb;
  new_key jsonb;
BEGIN
  IF TG_OP = 'DELETE' THEN tid := OLD.tenant_id; ELSE tid := NEW.tenant_id; END IF;
  SELECT phase INTO ph FROM store_moves_under_way WHERE tenant_id = tid;
  -- The move's own clearing of the source (the purge's delete names the store it erases).
  IF ph IS NULL OR current_setting('app.purging_tenant', true) = tid THEN RETURN NULL; END IF;
  IF ph = 'switching' THEN
    RAISE EXCEPTION 'store % is switching databases: try again in a moment', tid USING ERRCODE = '40001';
  END IF;
  IF TG_OP <> 'INSERT' THEN
    SELECT jsonb_object_agg(c, to_jsonb(OLD) -> c) INTO old_key FROM unnest(TG_ARGV) c;
    INSERT INTO store_move_changes (tenant_id, table_name, key) VALUES (tid, TG_TABLE_NAME, old_key);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    SELECT jsonb_object_agg(c, to_jsonb(NEW) -> c) INTO new_key FROM unnest(TG_ARGV) c;
    IF new_key IS DISTINCT FROM old_key THEN
      INSERT INTO store_move_changes (tenant_id, table_name, key) VALUES (tid, TG_TABLE_NAME, new_key);
    END IF;
  END IF;
  RETURN NULL;
END $$;
