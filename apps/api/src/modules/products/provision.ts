import { insertDefaultVariants, schema, type Tx } from '@app/db';

/** A product a new store starts with, in one category. */
export interface StarterProduct {
  id: string;
  slug: string;
  name: string;
  description: string;
  /** Minor units. */
  price: number;
  stock: number;
  grams: number;
  /** Its category's id, and the name the product's row denormalises for lists and search. */
  category: string;
  categoryName: string;
}

/**
 * A new store's starter products, written by the products domain in sign-up's transaction (decision
 * 110): each featured, in its category, and its stock on the books as an opening RECEIVED movement,
 * so the stock history adds up from the first day as it does for every later change.
 */
export async function addStarterProducts(
  tx: Tx,
  tenantId: string,
  products: readonly StarterProduct[],
  opened: { at: Date; actorId: string; note: string },
): Promise<void> {
  if (products.length === 0) return;
  const now = opened.at;
  await tx.insert(schema.products).values(
    products.map((p) => ({
      tenantId,
      productId: p.id,
      sku: p.id,
      productName: p.name,
      slug: p.slug,
      shortDescription: p.description,
      description: p.description,
      listPrice: p.price,
      stockQuantity: p.stock,
      weightGrams: p.grams,
      isFeatured: true,
      categoryNames: p.categoryName,
      introductionDate: now,
      updatedAt: now,
    })),
  );
  await insertDefaultVariants(
    tx,
    tenantId,
    products.map((p) => p.id),
  );
  await tx
    .insert(schema.productCategories)
    .values(products.map((p, i) => ({ tenantId, productCategoryId: p.category, productId: p.id, sequenceNum: i })));
  await tx.insert(schema.stockMovements).values(
    products.map((p) => ({
      tenantId,
      movementId: `opening-${p.id}`,
      productId: p.id,
      variantId: p.id,
      delta: p.stock,
      quantityBefore: 0,
      quantityAfter: p.stock,
      reason: 'RECEIVED' as const,
      note: opened.note,
      actorId: opened.actorId,
      createdAt: now,
    })),
  );
}
