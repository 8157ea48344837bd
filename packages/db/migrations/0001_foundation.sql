CREATE TABLE "catalog_categories" (
	"tenant_id" text NOT NULL,
	"prod_catalog_id" text NOT NULL,
	"product_category_id" text NOT NULL,
	"sequence_num" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "catalog_categories_tenant_id_prod_catalog_id_product_category_id_pk" PRIMARY KEY("tenant_id","prod_catalog_id","product_category_id")
);
--> statement-breakpoint
CREATE TABLE "catalogs" (
	"tenant_id" text NOT NULL,
	"prod_catalog_id" text NOT NULL,
	"product_store_id" text NOT NULL,
	"catalog_name" text NOT NULL,
	"sequence_num" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "catalogs_tenant_id_prod_catalog_id_pk" PRIMARY KEY("tenant_id","prod_catalog_id")
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"tenant_id" text NOT NULL,
	"product_category_id" text NOT NULL,
	"category_name" text,
	"description" text,
	"long_description" text,
	"link_two_image_url" text,
	"link_two_image_url_s3" text,
	CONSTRAINT "categories_tenant_id_product_category_id_pk" PRIMARY KEY("tenant_id","product_category_id")
);
--> statement-breakpoint
CREATE TABLE "category_rollups" (
	"tenant_id" text NOT NULL,
	"parent_product_category_id" text NOT NULL,
	"product_category_id" text NOT NULL,
	"sequence_num" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "category_rollups_tenant_id_parent_product_category_id_product_category_id_pk" PRIMARY KEY("tenant_id","parent_product_category_id","product_category_id")
);
--> statement-breakpoint
CREATE TABLE "product_categories" (
	"tenant_id" text NOT NULL,
	"product_category_id" text NOT NULL,
	"product_id" text NOT NULL,
	"sequence_num" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_categories_tenant_id_product_category_id_product_id_pk" PRIMARY KEY("tenant_id","product_category_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"tenant_id" text NOT NULL,
	"product_id" text NOT NULL,
	"sku" text NOT NULL,
	"product_name" text NOT NULL,
	"slug" text NOT NULL,
	"brand_name" text,
	"short_description" text,
	"description" text,
	"small_image_url" text,
	"medium_image_url" text,
	"detail_image_url" text,
	"list_price" integer NOT NULL,
	"sale_price" integer,
	"currency_uom_id" text DEFAULT 'USD' NOT NULL,
	"stock_quantity" integer DEFAULT 0 NOT NULL,
	"weight_grams" integer,
	"is_featured" boolean DEFAULT false NOT NULL,
	"introduction_date" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_tenant_id_product_id_pk" PRIMARY KEY("tenant_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "cms_pages" (
	"tenant_id" text NOT NULL,
	"page_id" text NOT NULL,
	"product_store_id" text NOT NULL,
	"page_title" text NOT NULL,
	"page_url" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"page_links" text[] DEFAULT '{}' NOT NULL,
	"sequence_num" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cms_pages_tenant_id_page_id_pk" PRIMARY KEY("tenant_id","page_id")
);
--> statement-breakpoint
CREATE TABLE "faqs" (
	"tenant_id" text NOT NULL,
	"product_store_survey_id" text NOT NULL,
	"faq_id" text NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"sequence_num" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "faqs_tenant_id_product_store_survey_id_faq_id_pk" PRIMARY KEY("tenant_id","product_store_survey_id","faq_id")
);
--> statement-breakpoint
CREATE TABLE "banners" (
	"tenant_id" text NOT NULL,
	"banner_id" text NOT NULL,
	"product_store_id" text NOT NULL,
	"title" text NOT NULL,
	"subtitle" text,
	"image_url" text NOT NULL,
	"link_url" text,
	"cta_label" text,
	"sequence_num" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "banners_tenant_id_banner_id_pk" PRIMARY KEY("tenant_id","banner_id")
);
--> statement-breakpoint
CREATE TABLE "seo_meta" (
	"tenant_id" text NOT NULL,
	"route" text NOT NULL,
	"title" text NOT NULL,
	"keywords" text NOT NULL,
	"description" text NOT NULL,
	CONSTRAINT "seo_meta_tenant_id_route_pk" PRIMARY KEY("tenant_id","route")
);
--> statement-breakpoint
CREATE TABLE "store_settings" (
	"tenant_id" text NOT NULL,
	"product_store_id" text NOT NULL,
	"template" text DEFAULT 'DEFAULT' NOT NULL,
	"theme" text DEFAULT 'THEME_FASHION' NOT NULL,
	"color_primary" text NOT NULL,
	"color_secondary" text NOT NULL,
	"color_banner" text NOT NULL,
	"color_action" text NOT NULL,
	"logo_url" text,
	"header_title" text,
	"header_description" text,
	"page_title" text,
	"promotion_title" text,
	"company_name" text,
	"address1" text,
	"address2" text,
	"city" text,
	"country_geo_id" text,
	"postal_code" text,
	"email_address" text,
	"country_code" text,
	"area_code" text,
	"contact_number" text,
	"newsletter_embed" text,
	"contact_page" text,
	"chat_widget_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_settings_tenant_id_product_store_id_pk" PRIMARY KEY("tenant_id","product_store_id")
);
--> statement-breakpoint
CREATE TABLE "product_stores" (
	"tenant_id" text NOT NULL,
	"product_store_id" text NOT NULL,
	"store_name" text NOT NULL,
	"currency_uom_id" text DEFAULT 'USD' NOT NULL,
	"canonical_host" text NOT NULL,
	CONSTRAINT "product_stores_tenant_id_product_store_id_pk" PRIMARY KEY("tenant_id","product_store_id")
);
--> statement-breakpoint
CREATE TABLE "store_hosts" (
	"host_name" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"product_store_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"is_ws2_public" boolean DEFAULT true NOT NULL,
	"erp_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"tenant_id" text NOT NULL,
	"user_id" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"phone" text,
	"role" text DEFAULT 'shopper' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_tenant_id_user_id_pk" PRIMARY KEY("tenant_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "catalog_categories" ADD CONSTRAINT "catalog_categories_tenant_id_prod_catalog_id_catalogs_tenant_id_prod_catalog_id_fk" FOREIGN KEY ("tenant_id","prod_catalog_id") REFERENCES "public"."catalogs"("tenant_id","prod_catalog_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_categories" ADD CONSTRAINT "catalog_categories_tenant_id_product_category_id_categories_tenant_id_product_category_id_fk" FOREIGN KEY ("tenant_id","product_category_id") REFERENCES "public"."categories"("tenant_id","product_category_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalogs" ADD CONSTRAINT "catalogs_tenant_id_product_store_id_product_stores_tenant_id_product_store_id_fk" FOREIGN KEY ("tenant_id","product_store_id") REFERENCES "public"."product_stores"("tenant_id","product_store_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_rollups" ADD CONSTRAINT "category_rollups_tenant_id_parent_product_category_id_categories_tenant_id_product_category_id_fk" FOREIGN KEY ("tenant_id","parent_product_category_id") REFERENCES "public"."categories"("tenant_id","product_category_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_rollups" ADD CONSTRAINT "category_rollups_tenant_id_product_category_id_categories_tenant_id_product_category_id_fk" FOREIGN KEY ("tenant_id","product_category_id") REFERENCES "public"."categories"("tenant_id","product_category_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_categories" ADD CONSTRAINT "product_categories_tenant_id_product_category_id_categories_tenant_id_product_category_id_fk" FOREIGN KEY ("tenant_id","product_category_id") REFERENCES "public"."categories"("tenant_id","product_category_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_categories" ADD CONSTRAINT "product_categories_tenant_id_product_id_products_tenant_id_product_id_fk" FOREIGN KEY ("tenant_id","product_id") REFERENCES "public"."products"("tenant_id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cms_pages" ADD CONSTRAINT "cms_pages_tenant_id_product_store_id_product_stores_tenant_id_product_store_id_fk" FOREIGN KEY ("tenant_id","product_store_id") REFERENCES "public"."product_stores"("tenant_id","product_store_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "faqs" ADD CONSTRAINT "faqs_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "banners" ADD CONSTRAINT "banners_tenant_id_product_store_id_product_stores_tenant_id_product_store_id_fk" FOREIGN KEY ("tenant_id","product_store_id") REFERENCES "public"."product_stores"("tenant_id","product_store_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seo_meta" ADD CONSTRAINT "seo_meta_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_settings" ADD CONSTRAINT "store_settings_tenant_id_product_store_id_product_stores_tenant_id_product_store_id_fk" FOREIGN KEY ("tenant_id","product_store_id") REFERENCES "public"."product_stores"("tenant_id","product_store_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_stores" ADD CONSTRAINT "product_stores_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_hosts" ADD CONSTRAINT "store_hosts_tenant_id_product_store_id_product_stores_tenant_id_product_store_id_fk" FOREIGN KEY ("tenant_id","product_store_id") REFERENCES "public"."product_stores"("tenant_id","product_store_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalog_categories_seq_idx" ON "catalog_categories" USING btree ("tenant_id","prod_catalog_id","sequence_num");--> statement-breakpoint
CREATE INDEX "catalog_categories_category_idx" ON "catalog_categories" USING btree ("tenant_id","product_category_id");--> statement-breakpoint
CREATE INDEX "catalogs_store_idx" ON "catalogs" USING btree ("tenant_id","product_store_id","sequence_num");--> statement-breakpoint
CREATE INDEX "category_rollups_child_idx" ON "category_rollups" USING btree ("tenant_id","product_category_id");--> statement-breakpoint
CREATE INDEX "product_categories_product_idx" ON "product_categories" USING btree ("tenant_id","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_sku_uq" ON "products" USING btree ("tenant_id","sku");--> statement-breakpoint
CREATE INDEX "products_slug_idx" ON "products" USING btree ("tenant_id","slug");--> statement-breakpoint
CREATE INDEX "products_new_idx" ON "products" USING btree ("tenant_id","introduction_date");--> statement-breakpoint
CREATE UNIQUE INDEX "cms_pages_url_uq" ON "cms_pages" USING btree ("tenant_id","product_store_id","page_url");--> statement-breakpoint
CREATE UNIQUE INDEX "product_stores_store_id_uq" ON "product_stores" USING btree ("product_store_id");--> statement-breakpoint
CREATE INDEX "store_hosts_tenant_idx" ON "store_hosts" USING btree ("tenant_id","product_store_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree ("tenant_id","email");