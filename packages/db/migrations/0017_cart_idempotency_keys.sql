CREATE TABLE "cart_idempotency_keys" (
	"tenant_id" text NOT NULL,
	"cart_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cart_idempotency_keys_tenant_id_cart_id_key_pk" PRIMARY KEY("tenant_id","cart_id","key")
);
--> statement-breakpoint
ALTER TABLE "cart_idempotency_keys" ADD CONSTRAINT "cart_idempotency_keys_tenant_id_cart_id_carts_tenant_id_cart_id_fk" FOREIGN KEY ("tenant_id","cart_id") REFERENCES "public"."carts"("tenant_id","cart_id") ON DELETE cascade ON UPDATE no action;