import { type SQL, sql } from 'drizzle-orm';

/**
 * What a review says the reviewer bought (decision 112): the variant titles of the product's lines on
 * the order that proved the purchase when the review was written (`order_id`, set then and never
 * changed). Order lines keep the title as it was when ordered, so a variant renamed or removed since
 * leaves the review as it was. Null when every such line is a default variant (''). One probe of the
 * order's lines by their primary key. The review's columns are named with the table's name, not
 * through Drizzle: in an INSERT's RETURNING it writes them bare, and bare they would be order_lines'.
 */
export const boughtVariantSql: SQL<string | null> = sql<string | null>`(
  SELECT string_agg(DISTINCT ol.variant_title, ', ' ORDER BY ol.variant_title) FROM order_lines ol
  WHERE ol.tenant_id = product_reviews.tenant_id AND ol.order_id = product_reviews.order_id
    AND ol.product_id = product_reviews.product_id
    AND ol.variant_title <> '')`;
