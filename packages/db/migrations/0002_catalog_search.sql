CREATE TABLE "product_associations" (
	"tenant_id" text NOT NULL,
	"product_id" text NOT NULL,
	"related_product_id" text NOT NULL,
	"assoc_type" text DEFAULT 'RELATED' NOT NULL,
	"sequence_num" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_associations_tenant_id_product_id_related_product_id_pk" PRIMARY KEY("tenant_id","product_id","related_product_id")
);
--> statement-breakpoint
CREATE TABLE "product_config_choices" (
	"tenant_id" text NOT NULL,
	"product_id" text NOT NULL,
	"option_id" text NOT NULL,
	"choice_id" text NOT NULL,
	"label" text NOT NULL,
	"price_delta" integer DEFAULT 0 NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"sequence_num" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_config_choices_tenant_id_product_id_option_id_choice_id_pk" PRIMARY KEY("tenant_id","product_id","option_id","choice_id")
);
--> statement-breakpoint
CREATE TABLE "product_config_options" (
	"tenant_id" text NOT NULL,
	"product_id" text NOT NULL,
	"option_id" text NOT NULL,
	"option_name" text NOT NULL,
	"sequence_num" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_config_options_tenant_id_product_id_option_id_pk" PRIMARY KEY("tenant_id","product_id","option_id")
);
--> statement-breakpoint
CREATE TABLE "product_contents" (
	"tenant_id" text NOT NULL,
	"product_id" text NOT NULL,
	"content_id" text NOT NULL,
	"title" text NOT NULL,
	"file_name" text NOT NULL,
	"media_key" text NOT NULL,
	"content_type" text NOT NULL,
	CONSTRAINT "product_contents_tenant_id_product_id_content_id_pk" PRIMARY KEY("tenant_id","product_id","content_id")
);
--> statement-breakpoint
CREATE TABLE "product_features" (
	"tenant_id" text NOT NULL,
	"product_id" text NOT NULL,
	"feature_id" text NOT NULL,
	"label" text NOT NULL,
	"value" text NOT NULL,
	"sequence_num" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_features_tenant_id_product_id_feature_id_pk" PRIMARY KEY("tenant_id","product_id","feature_id")
);
--> statement-breakpoint
CREATE TABLE "product_reviews" (
	"tenant_id" text NOT NULL,
	"review_id" text NOT NULL,
	"product_id" text NOT NULL,
	"author_name" text NOT NULL,
	"rating" integer NOT NULL,
	"title" text,
	"body" text,
	"status" text DEFAULT 'PUBLISHED' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_reviews_tenant_id_review_id_pk" PRIMARY KEY("tenant_id","review_id"),
	CONSTRAINT "product_reviews_rating_ck" CHECK ("product_reviews"."rating" BETWEEN 1 AND 5)
);
--> statement-breakpoint
CREATE TABLE "contact_messages" (
	"tenant_id" text NOT NULL,
	"message_id" text NOT NULL,
	"product_store_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_messages_tenant_id_message_id_pk" PRIMARY KEY("tenant_id","message_id")
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "product_type" text DEFAULT 'FINISHED_GOOD' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "category_names" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "effective_price" integer GENERATED ALWAYS AS (coalesce(sale_price, list_price)) STORED;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', coalesce(product_name, '')), 'A') || setweight(to_tsvector('english', coalesce(product_name, '')), 'A') || setweight(to_tsvector('simple', coalesce(brand_name, '')), 'A') || setweight(to_tsvector('english', coalesce(category_names, '')), 'B') || setweight(to_tsvector('english', coalesce(short_description, '') || ' ' || coalesce(description, '')), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "product_associations" ADD CONSTRAINT "product_associations_tenant_id_product_id_products_tenant_id_product_id_fk" FOREIGN KEY ("tenant_id","product_id") REFERENCES "public"."products"("tenant_id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_associations" ADD CONSTRAINT "product_associations_tenant_id_related_product_id_products_tenant_id_product_id_fk" FOREIGN KEY ("tenant_id","related_product_id") REFERENCES "public"."products"("tenant_id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_config_choices" ADD CONSTRAINT "product_config_choices_tenant_id_product_id_option_id_product_config_options_tenant_id_product_id_option_id_fk" FOREIGN KEY ("tenant_id","product_id","option_id") REFERENCES "public"."product_config_options"("tenant_id","product_id","option_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_config_options" ADD CONSTRAINT "product_config_options_tenant_id_product_id_products_tenant_id_product_id_fk" FOREIGN KEY ("tenant_id","product_id") REFERENCES "public"."products"("tenant_id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_contents" ADD CONSTRAINT "product_contents_tenant_id_product_id_products_tenant_id_product_id_fk" FOREIGN KEY ("tenant_id","product_id") REFERENCES "public"."products"("tenant_id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_features" ADD CONSTRAINT "product_features_tenant_id_product_id_products_tenant_id_product_id_fk" FOREIGN KEY ("tenant_id","product_id") REFERENCES "public"."products"("tenant_id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD CONSTRAINT "product_reviews_tenant_id_product_id_products_tenant_id_product_id_fk" FOREIGN KEY ("tenant_id","product_id") REFERENCES "public"."products"("tenant_id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_tenant_id_product_store_id_product_stores_tenant_id_product_store_id_fk" FOREIGN KEY ("tenant_id","product_store_id") REFERENCES "public"."product_stores"("tenant_id","product_store_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_reviews_product_idx" ON "product_reviews" USING btree ("tenant_id","product_id","status");--> statement-breakpoint
CREATE INDEX "contact_messages_store_idx" ON "contact_messages" USING btree ("tenant_id","product_store_id","created_at");--> statement-breakpoint
CREATE INDEX "products_price_idx" ON "products" USING btree ("tenant_id","effective_price");--> statement-breakpoint
CREATE INDEX "products_featured_idx" ON "products" USING btree ("tenant_id","is_featured");--> statement-breakpoint
CREATE INDEX "products_search_idx" ON "products" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "products_name_trgm_idx" ON "products" USING gin (lower("product_name") gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_price_ck" CHECK ("products"."list_price" >= 0 AND ("products"."sale_price" IS NULL OR "products"."sale_price" >= 0));--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_stock_ck" CHECK ("products"."stock_quantity" >= 0);