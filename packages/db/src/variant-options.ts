import { type SQL, sql } from 'drizzle-orm';

/**
 * A variant's options as one SQL value (decision 112): a JSON array of [option name, value label]
 * pairs in the options' order, for the `product_variants` row aliased `alias`; '[]' for a default
 * variant. One subquery on the values' and options' primary keys. The one reader of a variant's
 * labels for the product CSV's export and the marketplace feed (the search index reads value ids).
 */
export function variantOptionsSql(alias = 'v'): SQL {
  const v = sql.raw(alias);
  return sql`(SELECT coalesce(json_agg(json_build_array(o.name, ov.label) ORDER BY o.position), '[]'::json)
    FROM product_option_values ov
    JOIN product_options o ON o.tenant_id = ov.tenant_id AND o.product_id = ov.product_id AND o.option_id = ov.option_id
    WHERE ov.tenant_id = ${v}.tenant_id AND ov.product_id = ${v}.product_id
      AND ov.value_id IN (${v}.option1_value_id, ${v}.option2_value_id, ${v}.option3_value_id))`;
}

/** `variantOptionsSql`'s value as read back: PostgreSQL's driver parses JSON, PGlite's may hand it as text. */
export function variantOptionsOf(raw: unknown): [name: string, label: string][] {
  const list = typeof raw === 'string' ? JSON.parse(raw) : raw;
  return Array.isArray(list) ? (list as [string, string][]) : [];
}
