CREATE TABLE "customer_invitations" (
	"tenant_id" text NOT NULL,
	"invitation_id" text NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "customer_invitations_tenant_id_invitation_id_pk" PRIMARY KEY("tenant_id","invitation_id")
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "access_mode" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "access_status" text DEFAULT 'approved' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "access_decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "customer_invitations" ADD CONSTRAINT "customer_invitations_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_invitations_token_idx" ON "customer_invitations" USING btree ("tenant_id","token_hash");--> statement-breakpoint
CREATE INDEX "customer_invitations_email_idx" ON "customer_invitations" USING btree ("tenant_id","email");--> statement-breakpoint
CREATE INDEX "users_access_requests_idx" ON "users" USING btree ("tenant_id","created_at") WHERE "users"."access_status" <> 'approved';--> statement-breakpoint
-- Stores keep what they did: public stays public, private (constraints on) becomes "login required".
UPDATE "tenants" SET "access_mode" = CASE WHEN "is_ws2_public" THEN 'public' ELSE 'login_required' END;--> statement-breakpoint
ALTER TABLE "tenants" DROP COLUMN "is_ws2_public";