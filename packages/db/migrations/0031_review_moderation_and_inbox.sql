CREATE TABLE "contact_message_replies" (
	"tenant_id" text NOT NULL,
	"reply_id" text NOT NULL,
	"message_id" text NOT NULL,
	"body" text NOT NULL,
	"sent_by" text,
	"sent_by_name" text,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_message_replies_tenant_id_reply_id_pk" PRIMARY KEY("tenant_id","reply_id")
);
--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "reply_body" text;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "replied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "replied_by" text;--> statement-breakpoint
ALTER TABLE "product_reviews" ADD COLUMN "replied_by_name" text;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "status" text DEFAULT 'new' NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "read_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_message_replies" ADD CONSTRAINT "contact_message_replies_tenant_id_message_id_contact_messages_tenant_id_message_id_fk" FOREIGN KEY ("tenant_id","message_id") REFERENCES "public"."contact_messages"("tenant_id","message_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_message_replies_message_idx" ON "contact_message_replies" USING btree ("tenant_id","message_id","sent_at");--> statement-breakpoint
CREATE INDEX "product_reviews_newest_idx" ON "product_reviews" USING btree ("tenant_id","created_at","review_id");--> statement-breakpoint
CREATE INDEX "contact_messages_status_idx" ON "contact_messages" USING btree ("tenant_id","product_store_id","status","created_at","message_id");