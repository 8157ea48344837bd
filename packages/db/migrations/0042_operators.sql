CREATE TABLE "operator_challenges" (
	"challenge_hash" text PRIMARY KEY NOT NULL,
	"operator_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"operator_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "operator_store_figures" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"orders_30d" integer DEFAULT 0 NOT NULL,
	"sales_30d" bigint DEFAULT 0 NOT NULL,
	"currency" text NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_tokens" (
	"token_id" text PRIMARY KEY NOT NULL,
	"operator_id" text NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "operators" (
	"operator_id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"totp_secret" text,
	"totp_last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sign_in_at" timestamp with time zone,
	"disabled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "platform_audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "platform_audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"actor_kind" text NOT NULL,
	"operator_id" text,
	"actor_email" text,
	"token_id" text,
	"token_name" text,
	"action" text NOT NULL,
	"tenant_id" text,
	"target_id" text,
	"reason" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"request_id" text,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "support_grants" (
	"grant_id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"granted_by_user_id" text NOT NULL,
	"granted_by_email" text NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "support_sessions" (
	"ticket_hash" text PRIMARY KEY NOT NULL,
	"token_hash" text,
	"tenant_id" text NOT NULL,
	"grant_id" text NOT NULL,
	"operator_id" text NOT NULL,
	"operator_email" text NOT NULL,
	"owner_user_id" text NOT NULL,
	"ticket_expires_at" timestamp with time zone NOT NULL,
	"entered_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"reason" text NOT NULL,
	"used" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "support_operator_id" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "support_operator_email" text;--> statement-breakpoint
ALTER TABLE "operator_challenges" ADD CONSTRAINT "operator_challenges_operator_id_operators_operator_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("operator_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_sessions" ADD CONSTRAINT "operator_sessions_operator_id_operators_operator_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("operator_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_store_figures" ADD CONSTRAINT "operator_store_figures_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_tokens" ADD CONSTRAINT "operator_tokens_operator_id_operators_operator_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("operator_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_grants" ADD CONSTRAINT "support_grants_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_sessions" ADD CONSTRAINT "support_sessions_grant_id_support_grants_grant_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."support_grants"("grant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_sessions_operator_idx" ON "operator_sessions" USING btree ("operator_id");--> statement-breakpoint
CREATE INDEX "operator_store_figures_orders_idx" ON "operator_store_figures" USING btree ("orders_30d","tenant_id");--> statement-breakpoint
CREATE INDEX "operator_store_figures_sales_idx" ON "operator_store_figures" USING btree ("sales_30d","tenant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "operator_tokens_hash_uq" ON "operator_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "operators_email_uq" ON "operators" USING btree ("email");--> statement-breakpoint
CREATE INDEX "platform_audit_time_idx" ON "platform_audit_log" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "platform_audit_tenant_idx" ON "platform_audit_log" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "platform_audit_operator_idx" ON "platform_audit_log" USING btree ("operator_id","created_at","id");--> statement-breakpoint
CREATE INDEX "support_grants_tenant_idx" ON "support_grants" USING btree ("tenant_id","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "support_sessions_token_uq" ON "support_sessions" USING btree ("token_hash") WHERE "support_sessions"."token_hash" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "support_sessions_grant_idx" ON "support_sessions" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "tenants_created_idx" ON "tenants" USING btree ("created_at","tenant_id");--> statement-breakpoint
-- The platform's audit log is append-only like the stores' (audit_log_refuse_change, migration 0011).
CREATE TRIGGER platform_audit_log_no_update_delete BEFORE UPDATE OR DELETE ON platform_audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
--> statement-breakpoint
CREATE TRIGGER platform_audit_log_no_truncate BEFORE TRUNCATE ON platform_audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_refuse_change();
