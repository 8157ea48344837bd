ALTER TABLE "store_domains" ADD COLUMN "checks_from" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "store_domains" ADD COLUMN "next_check_at" timestamp with time zone;--> statement-breakpoint
-- Domains added before: their backoff counts from when they were added, as a new one's does.
UPDATE "store_domains" SET "checks_from" = "created_at";
