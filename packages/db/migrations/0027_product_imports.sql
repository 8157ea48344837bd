CREATE TABLE "product_import_errors" (
	"tenant_id" text NOT NULL,
	"import_id" text NOT NULL,
	"row_number" integer NOT NULL,
	"seq" integer NOT NULL,
	"sku" text,
	"column_name" text NOT NULL,
	"message" text NOT NULL,
	CONSTRAINT "product_import_errors_tenant_id_import_id_row_number_seq_pk" PRIMARY KEY("tenant_id","import_id","row_number","seq")
);
--> statement-breakpoint
CREATE TABLE "product_imports" (
	"tenant_id" text NOT NULL,
	"import_id" text NOT NULL,
	"product_store_id" text NOT NULL,
	"file_name" text NOT NULL,
	"byte_size" integer NOT NULL,
	"status" text NOT NULL,
	"summary" jsonb NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"job_id" text,
	"error" text,
	"created_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_imports_tenant_id_import_id_pk" PRIMARY KEY("tenant_id","import_id")
);
--> statement-breakpoint
CREATE INDEX "product_imports_recent_idx" ON "product_imports" USING btree ("tenant_id","created_at");