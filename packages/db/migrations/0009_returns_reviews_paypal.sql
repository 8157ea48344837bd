CREATE TABLE "paypal_checkouts" (
	"tenant_id" text NOT NULL,
	"paypal_order_id" text NOT NULL,
	"cart_id" text NOT NULL,
	"user_id" text,
	"request" jsonb NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"order_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "paypal_checkouts_tenant_id_paypal_order_id_pk" PRIMARY KEY("tenant_id","paypal_order_id")
);
--> statement-breakpoint
CREATE TABLE "return_lines" (
	"tenant_id" text NOT NULL,
	"return_id" text NOT NULL,
	"order_id" text NOT NULL,
	"line_no" integer NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "return_lines_tenant_id_return_id_line_no_pk" PRIMARY KEY("tenant_id","return_id","line_no"),
	CONSTRAINT "return_lines_quantity_ck" CHECK ("return_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "return_requests" (
	"tenant_id" text NOT NULL,
	"return_id" text NOT NULL,
	"order_id" text NOT NULL,
	"user_id" text,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "return_requests_tenant_id_return_id_pk" PRIMARY KEY("tenant_id","return_id")
);
--> statement-breakpoint
CREATE TABLE "return_status_history" (
	"tenant_id" text NOT NULL,
	"return_id" text NOT NULL,
	"seq" integer NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "return_status_history_tenant_id_return_id_seq_pk" PRIMARY KEY("tenant_id","return_id","seq")
);
--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "user_id" text;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "order_id" text;--> statement-breakpoint
ALTER TABLE "paypal_checkouts" ADD CONSTRAINT "paypal_checkouts_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_lines" ADD CONSTRAINT "return_lines_tenant_id_return_id_return_requests_tenant_id_return_id_fk" FOREIGN KEY ("tenant_id","return_id") REFERENCES "public"."return_requests"("tenant_id","return_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_lines" ADD CONSTRAINT "return_lines_tenant_id_order_id_line_no_order_lines_tenant_id_order_id_line_no_fk" FOREIGN KEY ("tenant_id","order_id","line_no") REFERENCES "public"."order_lines"("tenant_id","order_id","line_no") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_requests" ADD CONSTRAINT "return_requests_tenant_id_order_id_orders_tenant_id_order_id_fk" FOREIGN KEY ("tenant_id","order_id") REFERENCES "public"."orders"("tenant_id","order_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_status_history" ADD CONSTRAINT "return_status_history_tenant_id_return_id_return_requests_tenant_id_return_id_fk" FOREIGN KEY ("tenant_id","return_id") REFERENCES "public"."return_requests"("tenant_id","return_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "paypal_checkouts_created_idx" ON "paypal_checkouts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "return_lines_order_idx" ON "return_lines" USING btree ("tenant_id","order_id","line_no");--> statement-breakpoint
CREATE INDEX "return_requests_order_idx" ON "return_requests" USING btree ("tenant_id","order_id");--> statement-breakpoint
CREATE INDEX "return_requests_user_idx" ON "return_requests" USING btree ("tenant_id","user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "product_reviews_user_uq" ON "product_reviews" USING btree ("tenant_id","product_id","user_id") WHERE "product_reviews"."user_id" IS NOT NULL;