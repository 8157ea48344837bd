CREATE TABLE "order_events" (
	"tenant_id" text NOT NULL,
	"event_id" text NOT NULL,
	"order_id" text NOT NULL,
	"kind" text NOT NULL,
	"message" text NOT NULL,
	"data" jsonb,
	"visible_to_shopper" boolean DEFAULT false NOT NULL,
	"actor_kind" text,
	"actor_id" text,
	"actor_name" text,
	"request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_events_tenant_id_event_id_pk" PRIMARY KEY("tenant_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "order_fulfillments" (
	"tenant_id" text NOT NULL,
	"fulfillment_id" text NOT NULL,
	"order_id" text NOT NULL,
	"carrier" text NOT NULL,
	"carrier_name" text NOT NULL,
	"tracking_number" text,
	"tracking_url" text,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"actor_kind" text,
	"actor_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_fulfillments_tenant_id_fulfillment_id_pk" PRIMARY KEY("tenant_id","fulfillment_id")
);
--> statement-breakpoint
CREATE TABLE "order_refunds" (
	"tenant_id" text NOT NULL,
	"refund_id" text NOT NULL,
	"order_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"shipping_amount" integer DEFAULT 0 NOT NULL,
	"return_id" text,
	"provider" text NOT NULL,
	"provider_ref" text,
	"failure" text,
	"actor_kind" text,
	"actor_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "order_refunds_tenant_id_refund_id_pk" PRIMARY KEY("tenant_id","refund_id"),
	CONSTRAINT "order_refunds_amount_ck" CHECK ("order_refunds"."amount" > 0 AND "order_refunds"."shipping_amount" >= 0 AND "order_refunds"."shipping_amount" <= "order_refunds"."amount")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "captured_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Orders paid before this migration: the provider took the grand total (checkout charges it whole),
-- and an order marked refunded gave all of it back.
UPDATE "orders" SET "captured_amount" = "grand_total" WHERE "status" NOT IN ('placed', 'cancelled');--> statement-breakpoint
UPDATE "orders" SET "refunded_amount" = "captured_amount" WHERE "status" = 'refunded';--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_tenant_id_order_id_orders_tenant_id_order_id_fk" FOREIGN KEY ("tenant_id","order_id") REFERENCES "public"."orders"("tenant_id","order_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_fulfillments" ADD CONSTRAINT "order_fulfillments_tenant_id_order_id_orders_tenant_id_order_id_fk" FOREIGN KEY ("tenant_id","order_id") REFERENCES "public"."orders"("tenant_id","order_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD CONSTRAINT "order_refunds_tenant_id_order_id_orders_tenant_id_order_id_fk" FOREIGN KEY ("tenant_id","order_id") REFERENCES "public"."orders"("tenant_id","order_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("tenant_id","order_id","created_at");--> statement-breakpoint
CREATE INDEX "order_fulfillments_order_idx" ON "order_fulfillments" USING btree ("tenant_id","order_id","created_at");--> statement-breakpoint
CREATE INDEX "order_refunds_order_idx" ON "order_refunds" USING btree ("tenant_id","order_id","created_at");--> statement-breakpoint
CREATE INDEX "order_refunds_return_idx" ON "order_refunds" USING btree ("tenant_id","return_id") WHERE "order_refunds"."return_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "order_refunds_created_idx" ON "order_refunds" USING btree ("tenant_id","status","created_at");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refunded_ck" CHECK ("orders"."captured_amount" >= 0 AND "orders"."refunded_amount" >= 0 AND "orders"."refunded_amount" <= "orders"."captured_amount");