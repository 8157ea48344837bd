CREATE TABLE "postal_addresses" (
	"tenant_id" text NOT NULL,
	"contact_mech_id" text NOT NULL,
	"user_id" text NOT NULL,
	"to_name" text NOT NULL,
	"address1" text NOT NULL,
	"address2" text,
	"city" text NOT NULL,
	"postal_code" text NOT NULL,
	"country_geo_id" text NOT NULL,
	"state_province_geo_id" text,
	"phone" text,
	"is_default_shipping" boolean DEFAULT false NOT NULL,
	"is_default_billing" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "postal_addresses_tenant_id_contact_mech_id_pk" PRIMARY KEY("tenant_id","contact_mech_id")
);
--> statement-breakpoint
ALTER TABLE "postal_addresses" ADD CONSTRAINT "postal_addresses_tenant_id_user_id_users_tenant_id_user_id_fk" FOREIGN KEY ("tenant_id","user_id") REFERENCES "public"."users"("tenant_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "postal_addresses_user_idx" ON "postal_addresses" USING btree ("tenant_id","user_id");