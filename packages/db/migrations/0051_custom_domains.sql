CREATE TABLE "store_domains" (
	"tenant_id" text NOT NULL,
	"product_store_id" text NOT NULL,
	"domain" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"token" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone,
	CONSTRAINT "store_domains_tenant_id_domain_pk" PRIMARY KEY("tenant_id","domain"),
	CONSTRAINT "store_domains_primary_ck" CHECK (NOT "store_domains"."is_primary" OR "store_domains"."state" = 'active')
);
--> statement-breakpoint
ALTER TABLE "store_domains" ADD CONSTRAINT "store_domains_tenant_id_product_store_id_product_stores_tenant_id_product_store_id_fk" FOREIGN KEY ("tenant_id","product_store_id") REFERENCES "public"."product_stores"("tenant_id","product_store_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "store_domains_proven_uq" ON "store_domains" USING btree ("domain") WHERE "store_domains"."state" in ('verified', 'active');--> statement-breakpoint
CREATE INDEX "store_domains_domain_idx" ON "store_domains" USING btree ("domain");