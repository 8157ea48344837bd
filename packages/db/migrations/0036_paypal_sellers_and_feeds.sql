CREATE TABLE "marketplace_connections" (
	"tenant_id" text NOT NULL,
	"marketplace" text NOT NULL,
	"account_email" text NOT NULL,
	"booth_name" text NOT NULL,
	"token_sealed" text,
	"status" text DEFAULT 'connected' NOT NULL,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "marketplace_connections_tenant_id_marketplace_pk" PRIMARY KEY("tenant_id","marketplace"),
	CONSTRAINT "marketplace_connections_status_check" CHECK ("marketplace_connections"."status" IN ('connected', 'disconnected'))
);
--> statement-breakpoint
CREATE TABLE "product_feeds" (
	"tenant_id" text NOT NULL,
	"feed_id" text NOT NULL,
	"token_nonce" text NOT NULL,
	"product_count" integer DEFAULT 0 NOT NULL,
	"skipped" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"built_at" timestamp with time zone,
	"last_fetched_at" timestamp with time zone,
	"last_fetched_by" text,
	"fetch_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_feeds_tenant_id_feed_id_pk" PRIMARY KEY("tenant_id","feed_id")
);
--> statement-breakpoint
CREATE TABLE "payment_configs" (
	"tenant_id" text NOT NULL,
	"config_id" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"environment" text DEFAULT 'live' NOT NULL,
	"own_client_id" text,
	"own_client_secret_sealed" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "payment_configs_tenant_id_config_id_pk" PRIMARY KEY("tenant_id","config_id"),
	CONSTRAINT "payment_configs_environment_check" CHECK ("payment_configs"."environment" IN ('sandbox', 'live')),
	CONSTRAINT "payment_configs_own_app_check" CHECK (("payment_configs"."own_client_id" IS NULL) = ("payment_configs"."own_client_secret_sealed" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "payment_issues" (
	"tenant_id" text NOT NULL,
	"issue_id" text NOT NULL,
	"kind" text NOT NULL,
	"provider" text DEFAULT 'paypal' NOT NULL,
	"paypal_order_id" text,
	"capture_id" text,
	"order_id" text,
	"amount" integer,
	"currency" text,
	"message" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text,
	"resolution" text,
	CONSTRAINT "payment_issues_tenant_id_issue_id_pk" PRIMARY KEY("tenant_id","issue_id"),
	CONSTRAINT "payment_issues_status_check" CHECK ("payment_issues"."status" IN ('open', 'voided', 'resolved'))
);
--> statement-breakpoint
CREATE TABLE "paypal_seller_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"merchant_id" text,
	"reasons" text[] DEFAULT '{}' NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"note" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paypal_sellers" (
	"tenant_id" text NOT NULL,
	"status" text DEFAULT 'not_started' NOT NULL,
	"tracking_id" text NOT NULL,
	"merchant_id" text,
	"action_url" text,
	"referral_created_at" timestamp with time zone,
	"reasons" text[] DEFAULT '{}' NOT NULL,
	"payments_receivable" boolean,
	"primary_email_confirmed" boolean,
	"primary_email" text,
	"environment" text,
	"checked_at" timestamp with time zone,
	"connected_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "paypal_sellers_tenant_id_pk" PRIMARY KEY("tenant_id"),
	CONSTRAINT "paypal_sellers_status_check" CHECK ("paypal_sellers"."status" IN ('not_started', 'pending', 'action_needed', 'connected', 'disconnected'))
);
--> statement-breakpoint
CREATE TABLE "paypal_webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"event_type" text NOT NULL,
	"resource_id" text,
	"tenant_id" text,
	"outcome" text NOT NULL,
	"detail" text,
	"transmission_time" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_account" text;--> statement-breakpoint
ALTER TABLE "paypal_checkouts" ADD COLUMN "payment_account" text;--> statement-breakpoint
ALTER TABLE "paypal_checkouts" ADD COLUMN "status" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "paypal_checkouts" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "marketplace_connections" ADD CONSTRAINT "marketplace_connections_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_feeds" ADD CONSTRAINT "product_feeds_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_configs" ADD CONSTRAINT "payment_configs_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_issues" ADD CONSTRAINT "payment_issues_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paypal_seller_history" ADD CONSTRAINT "paypal_seller_history_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paypal_sellers" ADD CONSTRAINT "paypal_sellers_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_issues_open_idx" ON "payment_issues" USING btree ("tenant_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_issues_capture_idx" ON "payment_issues" USING btree ("tenant_id","kind","capture_id") WHERE "payment_issues"."capture_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "paypal_seller_history_tenant_idx" ON "paypal_seller_history" USING btree ("tenant_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "paypal_sellers_tracking_idx" ON "paypal_sellers" USING btree ("tracking_id");--> statement-breakpoint
CREATE UNIQUE INDEX "paypal_sellers_merchant_idx" ON "paypal_sellers" USING btree ("merchant_id") WHERE "paypal_sellers"."merchant_id" IS NOT NULL AND "paypal_sellers"."status" <> 'disconnected';--> statement-breakpoint
CREATE INDEX "paypal_webhook_events_tenant_idx" ON "paypal_webhook_events" USING btree ("tenant_id","received_at");--> statement-breakpoint
CREATE INDEX "paypal_webhook_events_received_idx" ON "paypal_webhook_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "paypal_checkouts_open_idx" ON "paypal_checkouts" USING btree ("created_at") WHERE "paypal_checkouts"."status" = 'open';--> statement-breakpoint
UPDATE "paypal_checkouts" SET "status" = 'placed', "closed_at" = "created_at" WHERE "order_id" IS NOT NULL;
