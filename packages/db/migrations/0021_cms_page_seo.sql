ALTER TABLE "cms_pages" ADD COLUMN "seo_title" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "cms_pages" ADD COLUMN "seo_description" text DEFAULT '' NOT NULL;