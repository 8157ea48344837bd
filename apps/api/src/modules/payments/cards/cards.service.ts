import { randomUUID } from 'node:crypto';
import type { CardCreate, CardEdit, SavedCard } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import type { TenantContext } from '../../../lib/context';
import { AppError } from '../../../lib/errors';
import { ok, type Refusal, type Result, refuse, refuseField } from '../../../lib/result';
import type { PaymentProvider } from './provider';
import { expired } from './test-provider';

const sc = schema.savedCards;
const pa = schema.postalAddresses;

const toCard = (r: typeof sc.$inferSelect): SavedCard => ({
  paymentMethodId: r.paymentMethodId,
  brand: r.brand,
  last4: r.last4,
  expMonth: r.expMonth,
  expYear: r.expYear,
  nameOnCard: r.nameOnCard,
  billingContactMechId: r.billingContactMechId,
  expired: expired(r.expMonth, r.expYear),
});

/**
 * Why a card is refused. Charging a saved card: BAD_REQUEST on `paymentMethodId` (not one of the
 * shopper's saved cards, or expired). Saving one: BAD_REQUEST on `billingContactMechId` (not one of
 * their addresses) or `expYear` (the expiry has passed), BAD_REQUEST (the provider finds the card
 * invalid), UNPROCESSABLE (the provider declines it).
 */
export type ChargeSavedCardRefusal = Refusal<'BAD_REQUEST'>;
export type SaveCardRefusal = Refusal<'BAD_REQUEST' | 'UNPROCESSABLE'>;

export function createCardsService(db: Db, provider: PaymentProvider) {
  /** A billing address must be one of the shopper's own. */
  async function checkBilling(
    ctx: TenantContext,
    userId: string,
    id: string | null | undefined,
  ): Promise<Result<string | null, SaveCardRefusal>> {
    if (!id) return ok(null);
    const [row] = await db
      .select({ id: pa.contactMechId })
      .from(pa)
      .where(and(eq(pa.tenantId, ctx.tenantId), eq(pa.userId, userId), eq(pa.contactMechId, id)));
    if (!row) return refuseField(400, 'BAD_REQUEST', 'billingContactMechId', 'choose one of your saved addresses.');
    return ok(id);
  }

  return {
    provider,

    /** A saved card of this shopper, with its provider token, for checkout to charge. */
    async forCharge(
      ctx: TenantContext,
      userId: string,
      paymentMethodId: string,
    ): Promise<Result<{ token: string; brand: string; last4: string }, ChargeSavedCardRefusal>> {
      const [row] = await db
        .select()
        .from(sc)
        .where(and(eq(sc.tenantId, ctx.tenantId), eq(sc.userId, userId), eq(sc.paymentMethodId, paymentMethodId)));
      if (!row) return refuseField(400, 'BAD_REQUEST', 'paymentMethodId', 'choose one of your saved cards.');
      if (expired(row.expMonth, row.expYear))
        return refuseField(400, 'BAD_REQUEST', 'paymentMethodId', 'this card has expired.');
      return ok({ token: row.providerToken, brand: row.brand, last4: row.last4 });
    },

    async list(ctx: TenantContext, userId: string): Promise<SavedCard[]> {
      const rows = await db
        .select()
        .from(sc)
        .where(and(eq(sc.tenantId, ctx.tenantId), eq(sc.userId, userId)))
        .orderBy(asc(sc.createdAt));
      return rows.map(toCard);
    },

    /** Tokenises the card with the provider and keeps the token, brand, last four and expiry. */
    async create(ctx: TenantContext, userId: string, input: CardCreate): Promise<Result<SavedCard, SaveCardRefusal>> {
      const billing = await checkBilling(ctx, userId, input.billingContactMechId);
      if (!billing.ok) return billing;
      const result = await provider.tokenizeCard({
        number: input.cardNumber,
        cvc: input.cvc,
        expMonth: input.expMonth,
        expYear: input.expYear,
        name: input.nameOnCard,
      });
      if (!result.ok) {
        return result.reason === 'declined'
          ? refuse(422, 'UNPROCESSABLE', result.message)
          : refuse(400, 'BAD_REQUEST', result.message);
      }
      const [row] = await db
        .insert(sc)
        .values({
          tenantId: ctx.tenantId,
          paymentMethodId: `PM-${randomUUID()}`,
          userId,
          provider: provider.id,
          providerToken: result.token,
          brand: result.brand,
          last4: result.last4,
          expMonth: input.expMonth,
          expYear: input.expYear,
          nameOnCard: input.nameOnCard,
          billingContactMechId: billing.value,
        })
        .returning();
      return ok(toCard(row as typeof sc.$inferSelect));
    },

    async edit(ctx: TenantContext, userId: string, input: CardEdit): Promise<Result<SavedCard, SaveCardRefusal>> {
      if (expired(input.expMonth, input.expYear))
        return refuseField(400, 'BAD_REQUEST', 'expYear', 'this expiry date has passed.');
      const billing = await checkBilling(ctx, userId, input.billingContactMechId);
      if (!billing.ok) return billing;
      const [row] = await db
        .update(sc)
        .set({
          expMonth: input.expMonth,
          expYear: input.expYear,
          nameOnCard: input.nameOnCard,
          billingContactMechId: billing.value,
        })
        .where(and(eq(sc.tenantId, ctx.tenantId), eq(sc.userId, userId), eq(sc.paymentMethodId, input.paymentMethodId)))
        .returning();
      if (!row) throw AppError.notFound('No such card in your account.');
      return ok(toCard(row));
    },

    async remove(ctx: TenantContext, userId: string, paymentMethodId: string) {
      const gone = await db
        .delete(sc)
        .where(and(eq(sc.tenantId, ctx.tenantId), eq(sc.userId, userId), eq(sc.paymentMethodId, paymentMethodId)))
        .returning({ id: sc.paymentMethodId });
      if (gone.length === 0) throw AppError.notFound('No such card in your account.');
    },
  };
}

export type CardsService = ReturnType<typeof createCardsService>;
