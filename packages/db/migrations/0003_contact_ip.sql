ALTER TABLE "contact_messages" ADD COLUMN "client_ip" text;--> statement-breakpoint
CREATE INDEX "contact_messages_ip_idx" ON "contact_messages" USING btree ("tenant_id","client_ip","created_at");