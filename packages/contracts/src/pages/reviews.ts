import type { ReviewEligibility } from '../returns';
import type { FormOutcome, ReviewField } from '../storefront';

/** Product reviews: whether the shopper may write one, and writing it. */
export interface ReviewsPages {
  /** Whether the signed-in shopper may review the product (the product page's form). */
  reviewEligibility(productId: string): Promise<ReviewEligibility | null>;
  /** Publishes the signed-in shopper's review of a product they bought. */
  writeReview(
    input: Record<'productId' | ReviewField, string>,
  ): Promise<{ ok: true; message: string } | FormOutcome<ReviewField>>;
}
