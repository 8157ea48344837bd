CREATE TABLE "cancel_request_history" (
	"tenant_id" text NOT NULL,
	"seq" integer NOT NULL,
	"from_status" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"request_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cancel_request_history_tenant_id_seq_pk" PRIMARY KEY("tenant_id","seq")
);
--> statement-breakpoint
CREATE TABLE "cancel_requests" (
	"tenant_id" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"requested_by" text,
	"requested_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cancel_requests_tenant_id_pk" PRIMARY KEY("tenant_id"),
	CONSTRAINT "cancel_requests_status_ck" CHECK ("cancel_requests"."status" IN ('none', 'requested', 'withdrawn', 'approved', 'closed'))
);
--> statement-breakpoint
CREATE TABLE "sitemap_files" (
	"tenant_id" text NOT NULL,
	"product_store_id" text NOT NULL,
	"file_name" text NOT NULL,
	"host_name" text NOT NULL,
	"body" text NOT NULL,
	"url_count" integer NOT NULL,
	"url_counts" jsonb,
	"generated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sitemap_files_tenant_id_product_store_id_file_name_pk" PRIMARY KEY("tenant_id","product_store_id","file_name")
);
--> statement-breakpoint
ALTER TABLE "cancel_request_history" ADD CONSTRAINT "cancel_request_history_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cancel_requests" ADD CONSTRAINT "cancel_requests_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sitemap_files" ADD CONSTRAINT "sitemap_files_tenant_id_product_store_id_product_stores_tenant_id_product_store_id_fk" FOREIGN KEY ("tenant_id","product_store_id") REFERENCES "public"."product_stores"("tenant_id","product_store_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_tenant_type_created_idx" ON "jobs" USING btree ("tenant_id","type","created_at");