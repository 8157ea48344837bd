CREATE TABLE "signup_requests" (
	"signup_id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"email" text NOT NULL,
	"store_name" text NOT NULL,
	"subdomain" text NOT NULL,
	"password_hash" text NOT NULL,
	"template" text NOT NULL,
	"starter" text NOT NULL,
	"ip" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"tenant_id" text,
	"provisioned_at" timestamp with time zone,
	"handoff_hash" text,
	"handoff_expires_at" timestamp with time zone,
	"handoff_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "store_setup" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checklist_dismissed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "signup_requests" ADD CONSTRAINT "signup_requests_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_setup" ADD CONSTRAINT "store_setup_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "signup_requests_token_uq" ON "signup_requests" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "signup_requests_handoff_uq" ON "signup_requests" USING btree ("handoff_hash");--> statement-breakpoint
CREATE INDEX "signup_requests_ip_idx" ON "signup_requests" USING btree ("ip","created_at");--> statement-breakpoint
CREATE INDEX "signup_requests_email_idx" ON "signup_requests" USING btree ("email","created_at");