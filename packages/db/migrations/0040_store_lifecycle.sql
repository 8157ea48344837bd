CREATE TABLE "store_lifecycle" (
	"tenant_id" text NOT NULL,
	"state" text NOT NULL,
	"closes_at" timestamp with time zone,
	"seq" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_lifecycle_tenant_id_pk" PRIMARY KEY("tenant_id"),
	CONSTRAINT "store_lifecycle_state_ck" CHECK (state IN ('provisioning', 'active', 'suspended', 'closing', 'closed', 'purged')),
	CONSTRAINT "store_lifecycle_closes_ck" CHECK ("store_lifecycle"."closes_at" IS NULL OR "store_lifecycle"."state" = 'closing')
);
--> statement-breakpoint
CREATE TABLE "store_lifecycle_history" (
	"tenant_id" text NOT NULL,
	"seq" integer NOT NULL,
	"from_state" text,
	"to_state" text NOT NULL,
	"reason" text NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text NOT NULL,
	"actor_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_lifecycle_history_tenant_id_seq_pk" PRIMARY KEY("tenant_id","seq"),
	CONSTRAINT "store_lifecycle_history_to_ck" CHECK (to_state IN ('provisioning', 'active', 'suspended', 'closing', 'closed', 'purged'))
);
--> statement-breakpoint
ALTER TABLE "cancel_requests" DROP CONSTRAINT "cancel_requests_status_ck";--> statement-breakpoint
ALTER TABLE "cancel_requests" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cancel_requests" ADD COLUMN "decision_reason" text;--> statement-breakpoint
ALTER TABLE "store_lifecycle" ADD CONSTRAINT "store_lifecycle_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_lifecycle_history" ADD CONSTRAINT "store_lifecycle_history_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "store_lifecycle_state_idx" ON "store_lifecycle" USING btree ("state");--> statement-breakpoint
CREATE INDEX "store_lifecycle_closes_idx" ON "store_lifecycle" USING btree ("closes_at") WHERE "store_lifecycle"."state" = 'closing';--> statement-breakpoint
ALTER TABLE "cancel_requests" ADD CONSTRAINT "cancel_requests_status_ck" CHECK ("cancel_requests"."status" IN ('none', 'requested', 'withdrawn', 'approved', 'declined', 'closed'));--> statement-breakpoint
-- Stores that existed before the lifecycle were open: each starts active, with the history saying so.
INSERT INTO "store_lifecycle" ("tenant_id", "state", "seq") SELECT "tenant_id", 'active', 1 FROM "tenants" ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "store_lifecycle_history" ("tenant_id", "seq", "from_state", "to_state", "reason", "actor_kind", "actor_id") SELECT "tenant_id", 1, NULL, 'active', 'The store was open before store states existed.', 'system', 'migration' FROM "tenants" ON CONFLICT DO NOTHING;
