ALTER TABLE "store_domains" ADD COLUMN "lapsed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "store_domains" ADD COLUMN "alias_of" text;
