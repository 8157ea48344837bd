CREATE TABLE "shipping_zones" (
	"tenant_id" text NOT NULL,
	"zone_id" text NOT NULL,
	"name" text NOT NULL,
	"countries" text[],
	"states" text[] DEFAULT '{}'::text[] NOT NULL,
	"sequence_num" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "shipping_zones_tenant_id_zone_id_pk" PRIMARY KEY("tenant_id","zone_id")
);
--> statement-breakpoint
ALTER TABLE "shipping_methods" ADD COLUMN "zone_id" text;--> statement-breakpoint
ALTER TABLE "shipping_methods" ADD COLUMN "bands" jsonb;--> statement-breakpoint
ALTER TABLE "shipping_methods" ADD COLUMN "handling_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_zones" ADD CONSTRAINT "shipping_zones_tenant_id_tenants_tenant_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("tenant_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipping_methods" ADD CONSTRAINT "shipping_methods_tenant_id_zone_id_shipping_zones_tenant_id_zone_id_fk" FOREIGN KEY ("tenant_id","zone_id") REFERENCES "public"."shipping_zones"("tenant_id","zone_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipping_methods" ADD CONSTRAINT "shipping_methods_amounts_ck" CHECK ("shipping_methods"."flat_rate" >= 0 AND coalesce("shipping_methods"."free_above", 0) >= 0 AND "shipping_methods"."handling_days" >= 0);--> statement-breakpoint
-- Today's methods become zones with the same prices: one zone per store and list of countries (methods
-- that shared a list share a zone), a method with no list a "Rest of world" zone; weight tables become
-- bands, sorted as checkout sorted them.
INSERT INTO "shipping_zones" ("tenant_id", "zone_id", "name", "countries", "sequence_num")
SELECT g.tenant_id,
       CASE WHEN g.countries IS NULL THEN 'REST_OF_WORLD' ELSE 'ZONE_' || g.n END,
       CASE WHEN g.countries IS NULL THEN 'Rest of world'
            WHEN length(array_to_string(g.countries, ', ')) <= 60 THEN array_to_string(g.countries, ', ')
            ELSE left(array_to_string(g.countries, ', '), 57) || '...' END,
       g.countries,
       g.n
FROM (
  SELECT tenant_id, countries,
         row_number() OVER (PARTITION BY tenant_id ORDER BY min(sequence_num), min(method_id))::int AS n
  FROM "shipping_methods"
  GROUP BY tenant_id, countries
) g;--> statement-breakpoint
UPDATE "shipping_methods" m
SET "zone_id" = z."zone_id"
FROM "shipping_zones" z
WHERE z."tenant_id" = m."tenant_id" AND z."countries" IS NOT DISTINCT FROM m."countries";--> statement-breakpoint
UPDATE "shipping_methods"
SET "bands" = coalesce(
  (SELECT jsonb_agg(jsonb_build_object('upTo', (b->>'upToGrams')::int, 'rate', (b->>'rate')::int)
                    ORDER BY (b->>'upToGrams')::int)
   FROM jsonb_array_elements("weight_table") b),
  '[]'::jsonb)
WHERE "kind" = 'weight';--> statement-breakpoint
ALTER TABLE "shipping_methods" ALTER COLUMN "zone_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "shipping_methods" DROP COLUMN "countries";--> statement-breakpoint
ALTER TABLE "shipping_methods" DROP COLUMN "weight_table";