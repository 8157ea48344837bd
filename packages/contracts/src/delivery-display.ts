/**
 * What a shopper reads beside a shipping choice about when it comes: "Ships in 2 business days ·
 * Arrives in 3–5 business days", or for local pickup "Ready for pickup in 1 business day". One
 * formatter for the server (which fills `ShippingRate.delivery`) and the pages, so checkout, the
 * owner's preview and anything later say it the same way.
 */

/** Business days in transit, as a carrier quotes them or an owner wrote them: min to max (equal for one figure). */
export interface TransitDays {
  min: number;
  max: number;
  /** The days are business days (the owner wrote "business" or "working", or a carrier quoted them). */
  business: boolean;
}

export interface DeliveryTerms {
  /** Local pickup: the handling days are when the order is ready, and nothing is in transit. */
  pickup?: boolean;
  /** Business days before the parcel leaves (the owner's handling days); 0 is not set (see decision 115's amendment). */
  handlingDays?: number | null;
  transitDays?: TransitDays | null;
}

const days = (n: number, business: boolean) => `${n} ${business ? 'business ' : ''}day${n === 1 ? '' : 's'}`;

function span(t: TransitDays): string {
  if (t.min === t.max) return days(t.max, t.business);
  // An en dash between the figures, as a range is typeset ("3–5 business days").
  return `${t.min}–${t.max} ${t.business ? 'business ' : ''}days`;
}

/**
 * The owner's method description read as a delivery estimate: "3 to 5 business days", "3-5 days",
 * "2 working days", "Arrives in 1 business day". Anything else (an address and hours, a sentence)
 * is not an estimate and is shown as the owner wrote it.
 */
export function transitDaysIn(description: string): TransitDays | null {
  const m =
    /^\s*(?:(?:arrives|delivered|delivery)\s+(?:in|within)\s+)?(\d{1,2})(?:\s*(?:to|-|–|—)\s*(\d{1,2}))?\s+(business\s+|working\s+)?days?\s*\.?\s*$/i.exec(
      description,
    );
  if (!m) return null;
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : Number(m[2]);
  if (max < min || max === 0) return null;
  return { min, max, business: m[3] !== undefined };
}

/**
 * The line for one shipping choice; parts the store did not set are left out, and null when none is
 * set. Handling days of 0 say nothing: it is the column's default, so it cannot promise same-day
 * dispatch.
 */
export function deliveryPromise(t: DeliveryTerms): string | null {
  const handling = t.handlingDays && t.handlingDays > 0 ? t.handlingDays : null;
  if (t.pickup) return handling ? `Ready for pickup in ${days(handling, true)}` : null;
  const parts: string[] = [];
  if (handling) parts.push(`Ships in ${days(handling, true)}`);
  if (t.transitDays) parts.push(`Arrives in ${span(t.transitDays)}`);
  return parts.length ? parts.join(' · ') : null;
}

/**
 * The method's description to show under the delivery line: none when the line already says what
 * it said (the owner's "3 to 5 business days" became "Arrives in 3–5 business days").
 */
export function descriptionBesideDelivery(rate: { description: string; delivery: string | null }): string | null {
  const d = rate.description.trim();
  if (!d) return null;
  if (rate.delivery?.includes('Arrives in') && transitDaysIn(d)) return null;
  return d;
}
