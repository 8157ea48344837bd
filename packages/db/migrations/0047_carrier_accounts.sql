CREATE TABLE "carrier_accounts" (
	"tenant_id" text NOT NULL,
	"carrier" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret_sealed" text NOT NULL,
	"account_number" text NOT NULL,
	"services" text[] DEFAULT '{}' NOT NULL,
	"markup_kind" text DEFAULT 'none' NOT NULL,
	"markup_value" integer DEFAULT 0 NOT NULL,
	"box_length_in" integer DEFAULT 12 NOT NULL,
	"box_width_in" integer DEFAULT 9 NOT NULL,
	"box_height_in" integer DEFAULT 6 NOT NULL,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "carrier_accounts_tenant_id_carrier_pk" PRIMARY KEY("tenant_id","carrier"),
	CONSTRAINT "carrier_accounts_carrier_check" CHECK ("carrier_accounts"."carrier" IN ('ups', 'fedex')),
	CONSTRAINT "carrier_accounts_markup_check" CHECK ("carrier_accounts"."markup_kind" IN ('none', 'percent', 'fixed') AND "carrier_accounts"."markup_value" >= 0),
	CONSTRAINT "carrier_accounts_box_check" CHECK ("carrier_accounts"."box_length_in" BETWEEN 1 AND 108 AND "carrier_accounts"."box_width_in" BETWEEN 1 AND 108 AND "carrier_accounts"."box_height_in" BETWEEN 1 AND 108)
);
--> statement-breakpoint
ALTER TABLE "carrier_accounts" ADD CONSTRAINT "carrier_accounts_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE cascade ON UPDATE no action;