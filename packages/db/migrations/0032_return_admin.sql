ALTER TABLE "return_lines" ADD COLUMN "restocked_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "refund_claim" text;--> statement-breakpoint
ALTER TABLE "return_status_history" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "return_status_history" ADD COLUMN "amount" integer;--> statement-breakpoint
ALTER TABLE "return_status_history" ADD COLUMN "actor_kind" text;--> statement-breakpoint
ALTER TABLE "return_status_history" ADD COLUMN "actor_id" text;--> statement-breakpoint
ALTER TABLE "return_status_history" ADD COLUMN "actor_name" text;--> statement-breakpoint
CREATE INDEX "return_requests_created_idx" ON "return_requests" USING btree ("tenant_id","created_at","return_id");--> statement-breakpoint
CREATE INDEX "return_requests_status_idx" ON "return_requests" USING btree ("tenant_id","status","created_at","return_id");--> statement-breakpoint
ALTER TABLE "return_lines" ADD CONSTRAINT "return_lines_restocked_ck" CHECK ("return_lines"."restocked_quantity" >= 0 AND "return_lines"."restocked_quantity" <= "return_lines"."quantity");