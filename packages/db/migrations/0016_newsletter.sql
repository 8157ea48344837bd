CREATE TABLE "newsletter_requests" (
	"tenant_id" text NOT NULL,
	"request_id" text NOT NULL,
	"email" text NOT NULL,
	"client_ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "newsletter_requests_tenant_id_request_id_pk" PRIMARY KEY("tenant_id","request_id")
);
--> statement-breakpoint
CREATE TABLE "newsletter_subscribers" (
	"tenant_id" text NOT NULL,
	"subscriber_id" text NOT NULL,
	"product_store_id" text NOT NULL,
	"email" text NOT NULL,
	"status" text NOT NULL,
	"confirm_token_hash" text,
	"confirm_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"unsubscribed_at" timestamp with time zone,
	CONSTRAINT "newsletter_subscribers_tenant_id_subscriber_id_pk" PRIMARY KEY("tenant_id","subscriber_id"),
	CONSTRAINT "newsletter_subscribers_status_ck" CHECK ("newsletter_subscribers"."status" IN ('pending', 'confirmed', 'unsubscribed'))
);
--> statement-breakpoint
ALTER TABLE "newsletter_requests" ADD CONSTRAINT "newsletter_requests_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_subscribers" ADD CONSTRAINT "newsletter_subscribers_tenant_id_product_store_id_product_stores_tenant_id_product_store_id_fk" FOREIGN KEY ("tenant_id","product_store_id") REFERENCES "public"."product_stores"("tenant_id","product_store_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "newsletter_requests_ip_idx" ON "newsletter_requests" USING btree ("tenant_id","client_ip","created_at");--> statement-breakpoint
CREATE INDEX "newsletter_requests_email_idx" ON "newsletter_requests" USING btree ("tenant_id","email","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_subscribers_email_uq" ON "newsletter_subscribers" USING btree ("tenant_id","product_store_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_subscribers_token_uq" ON "newsletter_subscribers" USING btree ("tenant_id","confirm_token_hash") WHERE "newsletter_subscribers"."confirm_token_hash" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "newsletter_subscribers_list_idx" ON "newsletter_subscribers" USING btree ("tenant_id","product_store_id","created_at","subscriber_id");