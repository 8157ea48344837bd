CREATE TABLE "customer_first_orders" (
	"tenant_id" text NOT NULL,
	"currency" text NOT NULL,
	"customer_key" text NOT NULL,
	"first_day" date NOT NULL,
	CONSTRAINT "customer_first_orders_tenant_id_currency_customer_key_pk" PRIMARY KEY("tenant_id","currency","customer_key")
);
--> statement-breakpoint
CREATE TABLE "customer_sales_daily" (
	"tenant_id" text NOT NULL,
	"currency" text NOT NULL,
	"day" date NOT NULL,
	"customer_key" text NOT NULL,
	CONSTRAINT "customer_sales_daily_tenant_id_day_currency_customer_key_pk" PRIMARY KEY("tenant_id","day","currency","customer_key")
);
--> statement-breakpoint
CREATE TABLE "product_sales_daily" (
	"tenant_id" text NOT NULL,
	"currency" text NOT NULL,
	"day" date NOT NULL,
	"product_id" text NOT NULL,
	"product_name" text NOT NULL,
	"units" integer NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "product_sales_daily_tenant_id_day_currency_product_id_pk" PRIMARY KEY("tenant_id","day","currency","product_id")
);
--> statement-breakpoint
CREATE TABLE "sales_daily" (
	"tenant_id" text NOT NULL,
	"currency" text NOT NULL,
	"day" date NOT NULL,
	"orders" integer NOT NULL,
	"sales" bigint DEFAULT 0 NOT NULL,
	"refunded" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "sales_daily_tenant_id_day_currency_pk" PRIMARY KEY("tenant_id","day","currency")
);
--> statement-breakpoint
CREATE TABLE "sales_rollup_state" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"read_up_to" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "customer_first_orders_day_idx" ON "customer_first_orders" USING btree ("tenant_id","currency","first_day");--> statement-breakpoint
CREATE INDEX "customer_sales_daily_key_idx" ON "customer_sales_daily" USING btree ("tenant_id","currency","customer_key","day");--> statement-breakpoint
CREATE INDEX "orders_updated_idx" ON "orders" USING btree ("tenant_id","updated_at");