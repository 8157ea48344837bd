ALTER TABLE "catalogs" ALTER COLUMN "product_store_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "image_media_id" text;--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "seo_title" text;--> statement-breakpoint
ALTER TABLE "categories" ADD COLUMN "seo_description" text;--> statement-breakpoint
CREATE INDEX "categories_id_prefix_idx" ON "categories" USING btree ("tenant_id",lower("product_category_id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "categories_name_prefix_idx" ON "categories" USING btree ("tenant_id",lower("category_name") text_pattern_ops);