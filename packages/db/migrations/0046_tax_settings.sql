CREATE TABLE "store_tax_settings" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"prices_include_tax" boolean DEFAULT false NOT NULL,
	"tax_number" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_totals_ck";--> statement-breakpoint
ALTER TABLE "tax_rates" ADD COLUMN "reduced_basis_points" integer;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "tax_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_included" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "tax_class" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "store_tax_settings" ADD CONSTRAINT "store_tax_settings_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_rates" ADD CONSTRAINT "tax_rates_reduced_ck" CHECK ("tax_rates"."reduced_basis_points" IS NULL OR ("tax_rates"."reduced_basis_points" >= 0 AND "tax_rates"."reduced_basis_points" <= 10000));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_totals_ck" CHECK ("orders"."grand_total" = "orders"."subtotal" - "orders"."discount" + "orders"."shipping_total" + CASE WHEN "orders"."tax_included" THEN 0 ELSE "orders"."tax_total" END);