CREATE TABLE "customer_notes" (
	"tenant_id" text NOT NULL,
	"note_id" text NOT NULL,
	"customer_key" text NOT NULL,
	"note" text NOT NULL,
	"author_id" text,
	"author_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_notes_tenant_id_note_id_pk" PRIMARY KEY("tenant_id","note_id")
);
--> statement-breakpoint
CREATE TABLE "customer_summaries" (
	"tenant_id" text NOT NULL,
	"customer_key" text NOT NULL,
	"user_id" text,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"order_count" integer NOT NULL,
	"paid_order_count" integer NOT NULL,
	"amount_spent" bigint NOT NULL,
	"first_order_at" timestamp with time zone,
	"last_order_at" timestamp with time zone,
	"customer_since" timestamp with time zone NOT NULL,
	CONSTRAINT "customer_summaries_tenant_id_customer_key_pk" PRIMARY KEY("tenant_id","customer_key")
);
--> statement-breakpoint
CREATE INDEX "customer_notes_customer_idx" ON "customer_notes" USING btree ("tenant_id","customer_key","created_at");--> statement-breakpoint
CREATE INDEX "customer_summaries_last_order_idx" ON "customer_summaries" USING btree ("tenant_id",coalesce("last_order_at", '-infinity'::timestamptz),"customer_key");--> statement-breakpoint
CREATE INDEX "customer_summaries_spent_idx" ON "customer_summaries" USING btree ("tenant_id","amount_spent","customer_key");--> statement-breakpoint
CREATE INDEX "customer_summaries_name_idx" ON "customer_summaries" USING btree ("tenant_id",lower("name"),"customer_key");--> statement-breakpoint
CREATE INDEX "customer_summaries_since_idx" ON "customer_summaries" USING btree ("tenant_id","customer_since");--> statement-breakpoint
CREATE INDEX "customer_summaries_user_idx" ON "customer_summaries" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "customer_summaries_search_idx" ON "customer_summaries" USING gin (lower("name" || ' ' || "email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "orders_guest_email_idx" ON "orders" USING btree ("tenant_id",lower("email")) WHERE "orders"."user_id" IS NULL;--> statement-breakpoint
-- Customer summaries (decision 045): one row per shopper account and per guest email, recomputed
-- from the customer's own orders (a handful, by index) by statement triggers on orders and users, in
-- the transaction of the write. An advisory lock per customer orders two writers of the same
-- customer, and each statement reads after it, so no concurrent order is lost from a summary.
CREATE OR REPLACE FUNCTION customer_summary_account(p_tenant text, p_user text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  acc record;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('customer:' || p_tenant || ':u:' || p_user, 0));
  SELECT email, first_name, last_name, role, created_at INTO acc FROM users
    WHERE tenant_id = p_tenant AND user_id = p_user;
  IF NOT FOUND OR acc.role <> 'shopper' THEN
    DELETE FROM customer_summaries WHERE tenant_id = p_tenant AND customer_key = 'u:' || p_user;
    RETURN;
  END IF;
  INSERT INTO customer_summaries AS cs (tenant_id, customer_key, user_id, email, name, order_count,
    paid_order_count, amount_spent, first_order_at, last_order_at, customer_since)
  SELECT p_tenant, 'u:' || p_user, p_user, lower(acc.email), trim(acc.first_name || ' ' || acc.last_name),
    count(o.order_id), count(o.order_id) FILTER (WHERE o.captured_amount > 0),
    coalesce(sum(o.captured_amount - o.refunded_amount), 0), min(o.placed_at), max(o.placed_at), acc.created_at
  FROM (
    SELECT order_id, captured_amount, refunded_amount, placed_at FROM orders
      WHERE tenant_id = p_tenant AND user_id = p_user
    UNION ALL
    SELECT order_id, captured_amount, refunded_amount, placed_at FROM orders
      WHERE tenant_id = p_tenant AND user_id IS NULL AND lower(email) = lower(acc.email)
  ) o
  ON CONFLICT (tenant_id, customer_key) DO UPDATE SET
    user_id = EXCLUDED.user_id, email = EXCLUDED.email, name = EXCLUDED.name,
    order_count = EXCLUDED.order_count, paid_order_count = EXCLUDED.paid_order_count,
    amount_spent = EXCLUDED.amount_spent, first_order_at = EXCLUDED.first_order_at,
    last_order_at = EXCLUDED.last_order_at, customer_since = EXCLUDED.customer_since;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION customer_summary_email(p_tenant text, p_email text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  e text := lower(p_email);
  uid text;
  n integer;
BEGIN
  SELECT user_id INTO uid FROM users WHERE tenant_id = p_tenant AND email = e;
  IF FOUND THEN
    -- A guest who has (or later made) an account with this email is that account's customer.
    DELETE FROM customer_summaries WHERE tenant_id = p_tenant AND customer_key = 'g:' || e;
    PERFORM customer_summary_account(p_tenant, uid);
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('customer:' || p_tenant || ':g:' || e, 0));
  SELECT count(*) INTO n FROM orders WHERE tenant_id = p_tenant AND user_id IS NULL AND lower(email) = e;
  IF n = 0 THEN
    DELETE FROM customer_summaries WHERE tenant_id = p_tenant AND customer_key = 'g:' || e;
    RETURN;
  END IF;
  INSERT INTO customer_summaries AS cs (tenant_id, customer_key, user_id, email, name, order_count,
    paid_order_count, amount_spent, first_order_at, last_order_at, customer_since)
  SELECT p_tenant, 'g:' || e, NULL, e,
    coalesce(nullif(trim((SELECT l.ship_to->>'toName' FROM orders l
      WHERE l.tenant_id = p_tenant AND l.user_id IS NULL AND lower(l.email) = e
      ORDER BY l.placed_at DESC, l.order_id DESC LIMIT 1)), ''), e),
    count(*), count(*) FILTER (WHERE o.captured_amount > 0),
    coalesce(sum(o.captured_amount - o.refunded_amount), 0), min(o.placed_at), max(o.placed_at), min(o.placed_at)
  FROM orders o WHERE o.tenant_id = p_tenant AND o.user_id IS NULL AND lower(o.email) = e
  ON CONFLICT (tenant_id, customer_key) DO UPDATE SET
    name = EXCLUDED.name, order_count = EXCLUDED.order_count, paid_order_count = EXCLUDED.paid_order_count,
    amount_spent = EXCLUDED.amount_spent, first_order_at = EXCLUDED.first_order_at,
    last_order_at = EXCLUDED.last_order_at, customer_since = EXCLUDED.customer_since;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION customer_summaries_orders_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT DISTINCT tenant_id, user_id, CASE WHEN user_id IS NULL THEN lower(email) END AS e
      FROM new_rows ORDER BY 1, 2, 3 LOOP
      IF r.user_id IS NOT NULL THEN PERFORM customer_summary_account(r.tenant_id, r.user_id);
      ELSE PERFORM customer_summary_email(r.tenant_id, r.e); END IF;
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR r IN SELECT DISTINCT tenant_id, user_id, CASE WHEN user_id IS NULL THEN lower(email) END AS e
      FROM old_rows ORDER BY 1, 2, 3 LOOP
      IF r.user_id IS NOT NULL THEN PERFORM customer_summary_account(r.tenant_id, r.user_id);
      ELSE PERFORM customer_summary_email(r.tenant_id, r.e); END IF;
    END LOOP;
  ELSE
    -- Only changes a summary shows: a status change alone (most updates) recomputes nothing.
    FOR r IN SELECT DISTINCT x.tenant_id, x.user_id, x.e FROM (
        SELECT n.tenant_id, n.user_id, CASE WHEN n.user_id IS NULL THEN lower(n.email) END AS e, o.order_id
          FROM new_rows n JOIN old_rows o ON o.tenant_id = n.tenant_id AND o.order_id = n.order_id
          WHERE (n.user_id, lower(n.email), n.captured_amount, n.refunded_amount, n.placed_at, n.ship_to->>'toName')
            IS DISTINCT FROM (o.user_id, lower(o.email), o.captured_amount, o.refunded_amount, o.placed_at, o.ship_to->>'toName')
        UNION ALL
        SELECT o.tenant_id, o.user_id, CASE WHEN o.user_id IS NULL THEN lower(o.email) END, o.order_id
          FROM new_rows n JOIN old_rows o ON o.tenant_id = n.tenant_id AND o.order_id = n.order_id
          WHERE (n.user_id, lower(n.email)) IS DISTINCT FROM (o.user_id, lower(o.email))
      ) x ORDER BY 1, 2, 3 LOOP
      IF r.user_id IS NOT NULL THEN PERFORM customer_summary_account(r.tenant_id, r.user_id);
      ELSE PERFORM customer_summary_email(r.tenant_id, r.e); END IF;
    END LOOP;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER customer_summaries_orders_insert AFTER INSERT ON orders REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION customer_summaries_orders_changed();
--> statement-breakpoint
CREATE TRIGGER customer_summaries_orders_update AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION customer_summaries_orders_changed();
--> statement-breakpoint
CREATE TRIGGER customer_summaries_orders_delete AFTER DELETE ON orders REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION customer_summaries_orders_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION customer_summaries_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT tenant_id, user_id, email FROM new_rows ORDER BY 1, 2 LOOP
      PERFORM customer_summary_email(r.tenant_id, r.email);
    END LOOP;
  ELSIF TG_OP = 'DELETE' THEN
    FOR r IN SELECT tenant_id, user_id, email FROM old_rows ORDER BY 1, 2 LOOP
      PERFORM customer_summary_account(r.tenant_id, r.user_id);
      PERFORM customer_summary_email(r.tenant_id, r.email);
    END LOOP;
  ELSE
    FOR r IN SELECT n.tenant_id, n.user_id, n.email, o.email AS old_email FROM new_rows n
        JOIN old_rows o ON o.tenant_id = n.tenant_id AND o.user_id = n.user_id
        WHERE (n.email, n.first_name, n.last_name, n.role, n.created_at)
          IS DISTINCT FROM (o.email, o.first_name, o.last_name, o.role, o.created_at)
        ORDER BY 1, 2 LOOP
      PERFORM customer_summary_account(r.tenant_id, r.user_id);
      IF r.old_email <> r.email THEN PERFORM customer_summary_email(r.tenant_id, r.old_email); END IF;
      PERFORM customer_summary_email(r.tenant_id, r.email);
    END LOOP;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER customer_summaries_users_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION customer_summaries_users_changed();
--> statement-breakpoint
CREATE TRIGGER customer_summaries_users_update AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION customer_summaries_users_changed();
--> statement-breakpoint
CREATE TRIGGER customer_summaries_users_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION customer_summaries_users_changed();
--> statement-breakpoint
-- The customers of existing stores.
SELECT customer_summary_account(tenant_id, user_id) FROM users WHERE role = 'shopper';
--> statement-breakpoint
SELECT customer_summary_email(g.tenant_id, g.e) FROM (
  SELECT DISTINCT o.tenant_id, lower(o.email) AS e FROM orders o WHERE o.user_id IS NULL
) g;
