CREATE TABLE "order_views" (
	"tenant_id" text NOT NULL,
	"view_id" text NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"filters" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_views_tenant_id_view_id_pk" PRIMARY KEY("tenant_id","view_id")
);
--> statement-breakpoint
ALTER TABLE "order_views" ADD CONSTRAINT "order_views_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_views" ADD CONSTRAINT "order_views_tenant_id_user_id_users_tenant_id_user_id_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_views_name_uq" ON "order_views" USING btree ("tenant_id","user_id",lower("name"));--> statement-breakpoint
CREATE INDEX "order_views_user_idx" ON "order_views" USING btree ("tenant_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_list_placed_idx" ON "orders" USING btree ("tenant_id","placed_at","order_id");--> statement-breakpoint
CREATE INDEX "orders_list_total_idx" ON "orders" USING btree ("tenant_id","grand_total","order_id");--> statement-breakpoint
CREATE INDEX "orders_id_prefix_idx" ON "orders" USING btree ("tenant_id",lower("order_id") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "orders_email_prefix_idx" ON "orders" USING btree ("tenant_id",lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "orders_ship_name_prefix_idx" ON "orders" USING btree ("tenant_id",lower("ship_to"->>'toName') text_pattern_ops);--> statement-breakpoint
CREATE INDEX "orders_ship_name_trgm_idx" ON "orders" USING gin (lower("ship_to"->>'toName') gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_name_trgm_idx" ON "users" USING gin (lower("first_name" || ' ' || "last_name") gin_trgm_ops);