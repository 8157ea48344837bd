CREATE TABLE "cart_lines" (
	"tenant_id" text NOT NULL,
	"cart_id" text NOT NULL,
	"line_id" text NOT NULL,
	"product_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"config_key" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cart_lines_tenant_id_cart_id_line_id_pk" PRIMARY KEY("tenant_id","cart_id","line_id"),
	CONSTRAINT "cart_lines_quantity_ck" CHECK ("cart_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "carts" (
	"tenant_id" text NOT NULL,
	"cart_id" text NOT NULL,
	"user_id" text,
	"guest_token_hash" text,
	"promo_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "carts_tenant_id_cart_id_pk" PRIMARY KEY("tenant_id","cart_id")
);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"tenant_id" text NOT NULL,
	"order_id" text NOT NULL,
	"line_no" integer NOT NULL,
	"product_id" text NOT NULL,
	"product_name" text NOT NULL,
	"options_text" text,
	"quantity" integer NOT NULL,
	"unit_price" integer NOT NULL,
	"line_total" integer NOT NULL,
	CONSTRAINT "order_lines_tenant_id_order_id_line_no_pk" PRIMARY KEY("tenant_id","order_id","line_no"),
	CONSTRAINT "order_lines_ck" CHECK ("order_lines"."quantity" > 0 AND "order_lines"."line_total" = "order_lines"."unit_price" * "order_lines"."quantity")
);
--> statement-breakpoint
CREATE TABLE "order_status_history" (
	"tenant_id" text NOT NULL,
	"order_id" text NOT NULL,
	"seq" integer NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_status_history_tenant_id_order_id_seq_pk" PRIMARY KEY("tenant_id","order_id","seq")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"tenant_id" text NOT NULL,
	"order_id" text NOT NULL,
	"user_id" text,
	"email" text NOT NULL,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"subtotal" integer NOT NULL,
	"discount" integer DEFAULT 0 NOT NULL,
	"shipping_total" integer NOT NULL,
	"tax_total" integer NOT NULL,
	"grand_total" integer NOT NULL,
	"promo_code" text,
	"shipping_method_id" text NOT NULL,
	"shipping_method_name" text NOT NULL,
	"ship_to" jsonb NOT NULL,
	"bill_to" jsonb,
	"payment_provider" text NOT NULL,
	"payment_ref" text,
	"payment_label" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"placed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_tenant_id_order_id_pk" PRIMARY KEY("tenant_id","order_id"),
	CONSTRAINT "orders_totals_ck" CHECK ("orders"."grand_total" = "orders"."subtotal" - "orders"."discount" + "orders"."shipping_total" + "orders"."tax_total")
);
--> statement-breakpoint
CREATE TABLE "promo_codes" (
	"tenant_id" text NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"value" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"min_subtotal" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"usage_limit" integer,
	"per_customer_limit" integer,
	"times_used" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "promo_codes_tenant_id_code_pk" PRIMARY KEY("tenant_id","code"),
	CONSTRAINT "promo_codes_value_ck" CHECK ("promo_codes"."value" > 0 AND ("promo_codes"."kind" <> 'percent' OR "promo_codes"."value" <= 100) AND "promo_codes"."times_used" >= 0)
);
--> statement-breakpoint
CREATE TABLE "promo_redemptions" (
	"tenant_id" text NOT NULL,
	"order_id" text NOT NULL,
	"code" text NOT NULL,
	"customer_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_redemptions_tenant_id_order_id_pk" PRIMARY KEY("tenant_id","order_id")
);
--> statement-breakpoint
CREATE TABLE "shipping_methods" (
	"tenant_id" text NOT NULL,
	"method_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"countries" text[],
	"flat_rate" integer DEFAULT 0 NOT NULL,
	"weight_table" jsonb,
	"free_above" integer,
	"sequence_num" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "shipping_methods_tenant_id_method_id_pk" PRIMARY KEY("tenant_id","method_id")
);
--> statement-breakpoint
CREATE TABLE "tax_rates" (
	"tenant_id" text NOT NULL,
	"country_geo_id" text NOT NULL,
	"region_geo_id" text DEFAULT '' NOT NULL,
	"label" text NOT NULL,
	"rate_basis_points" integer NOT NULL,
	"tax_shipping" boolean DEFAULT false NOT NULL,
	CONSTRAINT "tax_rates_tenant_id_country_geo_id_region_geo_id_pk" PRIMARY KEY("tenant_id","country_geo_id","region_geo_id"),
	CONSTRAINT "tax_rates_rate_ck" CHECK ("tax_rates"."rate_basis_points" >= 0 AND "tax_rates"."rate_basis_points" <= 10000)
);
--> statement-breakpoint
CREATE TABLE "wishlist_items" (
	"tenant_id" text NOT NULL,
	"user_id" text NOT NULL,
	"product_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wishlist_items_tenant_id_user_id_product_id_pk" PRIMARY KEY("tenant_id","user_id","product_id")
);
--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_tenant_id_cart_id_carts_tenant_id_cart_id_fk" FOREIGN KEY ("tenant_id","cart_id") REFERENCES "public"."carts"("tenant_id","cart_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cart_lines" ADD CONSTRAINT "cart_lines_tenant_id_product_id_products_tenant_id_product_id_fk" FOREIGN KEY ("tenant_id","product_id") REFERENCES "public"."products"("tenant_id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carts" ADD CONSTRAINT "carts_tenant_id_user_id_users_tenant_id_user_id_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_lines" ADD CONSTRAINT "order_lines_tenant_id_order_id_orders_tenant_id_order_id_fk" FOREIGN KEY ("tenant_id","order_id") REFERENCES "public"."orders"("tenant_id","order_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_status_history" ADD CONSTRAINT "order_status_history_tenant_id_order_id_orders_tenant_id_order_id_fk" FOREIGN KEY ("tenant_id","order_id") REFERENCES "public"."orders"("tenant_id","order_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promo_redemptions" ADD CONSTRAINT "promo_redemptions_tenant_id_code_promo_codes_tenant_id_code_fk" FOREIGN KEY ("tenant_id","code") REFERENCES "public"."promo_codes"("tenant_id","code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipping_methods" ADD CONSTRAINT "shipping_methods_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_rates" ADD CONSTRAINT "tax_rates_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD CONSTRAINT "wishlist_items_tenant_id_user_id_users_tenant_id_user_id_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wishlist_items" ADD CONSTRAINT "wishlist_items_tenant_id_product_id_products_tenant_id_product_id_fk" FOREIGN KEY ("tenant_id","product_id") REFERENCES "public"."products"("tenant_id","product_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cart_lines_product_uq" ON "cart_lines" USING btree ("tenant_id","cart_id","product_id","config_key");--> statement-breakpoint
CREATE UNIQUE INDEX "carts_user_uq" ON "carts" USING btree ("tenant_id","user_id") WHERE "carts"."user_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "carts_guest_uq" ON "carts" USING btree ("tenant_id","guest_token_hash") WHERE "carts"."guest_token_hash" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "carts_updated_idx" ON "carts" USING btree ("updated_at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_idempotency_uq" ON "orders" USING btree ("tenant_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "orders_user_idx" ON "orders" USING btree ("tenant_id","user_id","placed_at");--> statement-breakpoint
CREATE INDEX "promo_redemptions_customer_idx" ON "promo_redemptions" USING btree ("tenant_id","code","customer_key");