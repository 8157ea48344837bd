CREATE TABLE "product_images" (
	"tenant_id" text NOT NULL,
	"product_id" text NOT NULL,
	"media_id" text NOT NULL,
	"alt_text" text,
	"sequence_num" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_images_tenant_id_product_id_media_id_pk" PRIMARY KEY("tenant_id","product_id","media_id")
);
--> statement-breakpoint
CREATE TABLE "product_slug_history" (
	"tenant_id" text NOT NULL,
	"slug" text NOT NULL,
	"product_id" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_slug_history_tenant_id_slug_pk" PRIMARY KEY("tenant_id","slug")
);
--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"tenant_id" text NOT NULL,
	"movement_id" text NOT NULL,
	"product_id" text NOT NULL,
	"delta" integer NOT NULL,
	"quantity_before" integer NOT NULL,
	"quantity_after" integer NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"order_id" text,
	"return_id" text,
	"actor_id" text,
	"actor_name" text,
	"request_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_movements_tenant_id_movement_id_pk" PRIMARY KEY("tenant_id","movement_id"),
	CONSTRAINT "stock_movements_books_ck" CHECK ("stock_movements"."quantity_after" = "stock_movements"."quantity_before" + "stock_movements"."delta" AND "stock_movements"."quantity_after" >= 0)
);
--> statement-breakpoint
DROP INDEX "products_slug_idx";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "status" text DEFAULT 'ACTIVE' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "seo_title" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "seo_description" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "product_stores" ADD COLUMN "low_stock_threshold" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_tenant_id_product_id_products_tenant_id_product_id_fk" FOREIGN KEY ("tenant_id","product_id") REFERENCES "public"."products"("tenant_id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_images" ADD CONSTRAINT "product_images_tenant_id_media_id_media_tenant_id_media_id_fk" FOREIGN KEY ("tenant_id","media_id") REFERENCES "public"."media"("tenant_id","media_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_slug_history" ADD CONSTRAINT "product_slug_history_tenant_id_product_id_products_tenant_id_product_id_fk" FOREIGN KEY ("tenant_id","product_id") REFERENCES "public"."products"("tenant_id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_tenant_id_product_id_products_tenant_id_product_id_fk" FOREIGN KEY ("tenant_id","product_id") REFERENCES "public"."products"("tenant_id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_images_seq_idx" ON "product_images" USING btree ("tenant_id","product_id","sequence_num");--> statement-breakpoint
CREATE INDEX "product_slug_history_product_idx" ON "product_slug_history" USING btree ("tenant_id","product_id");--> statement-breakpoint
CREATE INDEX "stock_movements_product_idx" ON "stock_movements" USING btree ("tenant_id","product_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "products_slug_uq" ON "products" USING btree ("tenant_id","slug");--> statement-breakpoint
CREATE INDEX "products_updated_idx" ON "products" USING btree ("tenant_id","updated_at","product_id");