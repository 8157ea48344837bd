-- Products with variants (decision 112). One transaction, in the order of the decision's section 3:
-- the DDL is drizzle-kit's, the backfills between it are written by hand (a NOT NULL column cannot be
-- added to a filled table without one).
-- 1. The four tables and their keys.
CREATE TABLE "product_options" (
	"tenant_id" text NOT NULL,
	"product_id" text NOT NULL,
	"option_id" text NOT NULL,
	"name" text NOT NULL,
	"position" smallint NOT NULL,
	CONSTRAINT "product_options_tenant_id_product_id_option_id_pk" PRIMARY KEY("tenant_id","product_id","option_id"),
	CONSTRAINT "product_options_position_ck" CHECK ("product_options"."position" BETWEEN 1 AND 3)
);--> statement-breakpoint
CREATE TABLE "product_option_values" (
	"tenant_id" text NOT NULL,
	"product_id" text NOT NULL,
	"option_id" text NOT NULL,
	"value_id" text NOT NULL,
	"label" text NOT NULL,
	"position" smallint NOT NULL,
	"swatch_color" text,
	"swatch_media_id" text,
	CONSTRAINT "product_option_values_tenant_id_product_id_value_id_pk" PRIMARY KEY("tenant_id","product_id","value_id"),
	CONSTRAINT "product_option_values_swatch_ck" CHECK ("product_option_values"."swatch_color" IS NULL OR "product_option_values"."swatch_color" ~ '^#[0-9a-f]{6}$')
);--> statement-breakpoint
CREATE TABLE "product_variants" (
	"tenant_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"product_id" text NOT NULL,
	"position" integer NOT NULL,
	"option1_value_id" text,
	"option2_value_id" text,
	"option3_value_id" text,
	"title" text DEFAULT '' NOT NULL,
	"sku" text NOT NULL,
	"barcode" text,
	"list_price" integer NOT NULL,
	"sale_price" integer,
	"effective_price" integer GENERATED ALWAYS AS (coalesce(sale_price, list_price)) STORED,
	"weight_grams" integer,
	"stock_quantity" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"removed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_variants_tenant_id_variant_id_pk" PRIMARY KEY("tenant_id","variant_id"),
	CONSTRAINT "product_variants_stock_ck" CHECK ("product_variants"."stock_quantity" >= 0),
	CONSTRAINT "product_variants_price_ck" CHECK ("product_variants"."list_price" >= 0 AND ("product_variants"."sale_price" IS NULL OR "product_variants"."sale_price" >= 0))
);--> statement-breakpoint
CREATE TABLE "product_variant_images" (
	"tenant_id" text NOT NULL,
	"product_id" text NOT NULL,
	"variant_id" text NOT NULL,
	"media_id" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_variant_images_tenant_id_variant_id_media_id_pk" PRIMARY KEY("tenant_id","variant_id","media_id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "product_option_values_label_uq" ON "product_option_values" USING btree ("tenant_id","product_id","option_id",lower("label"));--> statement-breakpoint
CREATE UNIQUE INDEX "product_options_position_uq" ON "product_options" USING btree ("tenant_id","product_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "product_options_name_uq" ON "product_options" USING btree ("tenant_id","product_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_product_uq" ON "product_variants" USING btree ("tenant_id","product_id","variant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_sku_uq" ON "product_variants" USING btree ("tenant_id","sku") WHERE "product_variants"."removed_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "product_variants_options_uq" ON "product_variants" USING btree ("tenant_id","product_id",coalesce("option1_value_id", ''),coalesce("option2_value_id", ''),coalesce("option3_value_id", '')) WHERE "product_variants"."removed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "product_variants_sku_prefix_idx" ON "product_variants" USING btree ("tenant_id",lower("sku") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "product_variants_barcode_idx" ON "product_variants" USING btree ("tenant_id","barcode") WHERE "product_variants"."barcode" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "product_variants_stock_idx" ON "product_variants" USING btree ("tenant_id","stock_quantity","variant_id") WHERE "product_variants"."removed_at" IS NULL;--> statement-breakpoint
ALTER TABLE "product_option_values" ADD CONSTRAINT "product_option_values_tenant_id_product_id_option_id_product_options_tenant_id_product_id_option_id_fk" FOREIGN KEY ("tenant_id","product_id","option_id") REFERENCES "public"."product_options"("tenant_id","product_id","option_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_option_values" ADD CONSTRAINT "product_option_values_tenant_id_swatch_media_id_media_tenant_id_media_id_fk" FOREIGN KEY ("tenant_id","swatch_media_id") REFERENCES "public"."media"("tenant_id","media_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_options" ADD CONSTRAINT "product_options_tenant_id_product_id_products_tenant_id_product_id_fk" FOREIGN KEY ("tenant_id","product_id") REFERENCES "public"."products"("tenant_id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variant_images" ADD CONSTRAINT "product_variant_images_tenant_id_product_id_variant_id_product_variants_tenant_id_product_id_variant_id_fk" FOREIGN KEY ("tenant_id","product_id","variant_id") REFERENCES "public"."product_variants"("tenant_id","product_id","variant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variant_images" ADD CONSTRAINT "product_variant_images_tenant_id_product_id_media_id_product_images_tenant_id_product_id_media_id_fk" FOREIGN KEY ("tenant_id","product_id","media_id") REFERENCES "public"."product_images"("tenant_id","product_id","media_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_tenant_id_product_id_products_tenant_id_product_id_fk" FOREIGN KEY ("tenant_id","product_id") REFERENCES "public"."products"("tenant_id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_option1_fk" FOREIGN KEY ("tenant_id","product_id","option1_value_id") REFERENCES "public"."product_option_values"("tenant_id","product_id","value_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_option2_fk" FOREIGN KEY ("tenant_id","product_id","option2_value_id") REFERENCES "public"."product_option_values"("tenant_id","product_id","value_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_variants" ADD CONSTRAINT "product_variants_option3_fk" FOREIGN KEY ("tenant_id","product_id","option3_value_id") REFERENCES "public"."product_option_values"("tenant_id","product_id","value_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- 2. One default variant per product: its id is the product's, so every product id still names a
-- sellable thing, and it carries what the product had. Enabled, archived products too: the
-- product's status decides what is sold.
INSERT INTO "product_variants" ("tenant_id", "variant_id", "product_id", "position", "title", "sku", "list_price",
  "sale_price", "weight_grams", "stock_quantity", "enabled", "created_at", "updated_at")
SELECT "tenant_id", "product_id", "product_id", 1, '', "sku", "list_price", "sale_price", "weight_grams",
  "stock_quantity", true, "introduction_date", "updated_at"
FROM "products";--> statement-breakpoint
-- 3. The products' rollup of their variants (one each), search with the variants' words, and SKU
-- uniqueness moved to the variants.
ALTER TABLE "products" ADD COLUMN "price_max" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "variant_count" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sellable_stock" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "variant_words" text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE "products" SET "price_max" = "effective_price", "variant_count" = 1, "sellable_stock" = "stock_quantity";--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_sellable_ck" CHECK ("products"."sellable_stock" >= 0);--> statement-breakpoint
ALTER TABLE "products" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', coalesce(product_name, '')), 'A') || setweight(to_tsvector('english', coalesce(product_name, '')), 'A') || setweight(to_tsvector('simple', coalesce(brand_name, '')), 'A') || setweight(to_tsvector('english', coalesce(category_names, '')), 'B') || setweight(to_tsvector('simple', coalesce(variant_words, '')), 'B') || setweight(to_tsvector('english', coalesce(short_description, '') || ' ' || coalesce(description, '')), 'C')) STORED;--> statement-breakpoint
CREATE INDEX "products_search_idx" ON "products" USING gin ("search_vector");--> statement-breakpoint
DROP INDEX "products_sku_uq";--> statement-breakpoint
DROP INDEX "products_sku_prefix_idx";--> statement-breakpoint
-- 4. Every movement names its product's default variant.
ALTER TABLE "stock_movements" ADD COLUMN "variant_id" text;--> statement-breakpoint
UPDATE "stock_movements" SET "variant_id" = "product_id";--> statement-breakpoint
ALTER TABLE "stock_movements" ALTER COLUMN "variant_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_variant_fk" FOREIGN KEY ("tenant_id","product_id","variant_id") REFERENCES "public"."product_variants"("tenant_id","product_id","variant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_movements_variant_idx" ON "stock_movements" USING btree ("tenant_id","variant_id","created_at");--> statement-breakpoint
-- 5. Cart lines are lines of a variant.
ALTER TABLE "cart_lines" ADD COLUMN "variant_id" text;--> statement-breakpoint
UPDATE "cart_lines" SET "variant_id" = "product_id";--> statement-breakpoint
ALTER TABLE "cart_lines" ALTER COLUMN "variant_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_variant_fk" FOREIGN KEY ("tenant_id","product_id","variant_id") REFERENCES "public"."product_variants"("tenant_id","product_id","variant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
DROP INDEX "cart_lines_product_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "cart_lines_product_uq" ON "cart_lines" USING btree ("tenant_id","cart_id","variant_id","config_key");--> statement-breakpoint
-- 6. Order lines: the variant and its SKU as snapshots, for products that still exist (lines keep no
-- foreign key: a deleted product's lines keep a null variant).
ALTER TABLE "order_lines" ADD COLUMN "variant_id" text;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "sku" text;--> statement-breakpoint
ALTER TABLE "order_lines" ADD COLUMN "variant_title" text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE "order_lines" SET "variant_id" = "products"."product_id", "sku" = "products"."sku"
FROM "products"
WHERE "products"."tenant_id" = "order_lines"."tenant_id" AND "products"."product_id" = "order_lines"."product_id";--> statement-breakpoint
CREATE INDEX "order_lines_variant_idx" ON "order_lines" USING btree ("tenant_id","variant_id");--> statement-breakpoint
-- 7. Feeds count items (variants) beside products; until now one item was one product.
ALTER TABLE "product_feeds" ADD COLUMN "item_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "product_feeds" SET "item_count" = "product_count";
