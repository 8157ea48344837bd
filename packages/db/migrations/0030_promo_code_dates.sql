ALTER TABLE "promo_codes" ADD COLUMN "created_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD COLUMN "updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "promo_codes_created_idx" ON "promo_codes" USING btree ("tenant_id","created_at" DESC NULLS LAST,"code");--> statement-breakpoint
CREATE INDEX "promo_redemptions_code_created_idx" ON "promo_redemptions" USING btree ("tenant_id","code","created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_dates_ck" CHECK ("promo_codes"."starts_at" IS NULL OR "promo_codes"."ends_at" IS NULL OR "promo_codes"."starts_at" < "promo_codes"."ends_at");