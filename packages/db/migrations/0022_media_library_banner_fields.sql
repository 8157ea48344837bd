CREATE TABLE "media" (
	"tenant_id" text NOT NULL,
	"media_id" text NOT NULL,
	"storage_key" text NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"source_format" text NOT NULL,
	"alt_text" text,
	"created_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_tenant_id_media_id_pk" PRIMARY KEY("tenant_id","media_id")
);
--> statement-breakpoint
ALTER TABLE "banners" ADD COLUMN "alt_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "banners" ADD COLUMN "media_id" text;--> statement-breakpoint
ALTER TABLE "banners" ADD COLUMN "starts_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "banners" ADD COLUMN "ends_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "media" ADD CONSTRAINT "media_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_time_idx" ON "media" USING btree ("tenant_id","created_at","media_id");--> statement-breakpoint
CREATE INDEX "banners_store_idx" ON "banners" USING btree ("tenant_id","product_store_id","sequence_num");