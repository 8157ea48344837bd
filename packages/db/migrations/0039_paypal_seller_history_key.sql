-- Every tenant-owned table leads its primary key with tenant_id (0036 keyed the history by id alone).
ALTER TABLE "paypal_seller_history" DROP CONSTRAINT "paypal_seller_history_pkey";--> statement-breakpoint
ALTER TABLE "paypal_seller_history" ADD CONSTRAINT "paypal_seller_history_tenant_id_id_pk" PRIMARY KEY("tenant_id","id");
