import { randomUUID } from 'node:crypto';
import type { CardCreate, CardEdit, SavedCard } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
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

export function createCardsService(db: Db, provider: PaymentProvider) {
  /** A billing address must be one of the shopper's own. */
  async function checkBilling(ctx: TenantContext, userId: string, id: string | null | undefined) {
    if (!id) return null;
    const [row] = await db
      .select({ id: pa.contactMechId })
      .from(pa)
      .where(and(eq(pa.tenantId, ctx.tenantId), eq(pa.userId, userId), eq(pa.contactMechId, id)));
    if (!row) throw AppError.field(400, 'BAD_REQUEST', 'billingContactMechId', 'choose one of your saved addresses.');
    return id;
  }

  return {
    provider,

    /** A saved card of this shopper, with its provider token, for checkout to charge. */
    async forCharge(ctx: TenantContext, userId: string, paymentMethodId: string) {
      const [row] = await db
        .select()
        .from(sc)
        .where(and(eq(sc.tenantId, ctx.tenantId), eq(sc.userId, userId), eq(sc.paymentMethodId, paymentMethodId)));
      if (!row) throw AppError.field(400, 'BAD_REQUEST', 'paymentMethodId', 'choose one of your saved cards.');
      if (expired(row.expMonth, row.expYear))
        throw AppError.field(400, 'BAD_REQUEST', 'paymentMethodId', 'this card has expired.');
      return { token: row.providerToken, brand: row.brand, last4: row.last4 };
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
    async create(ctx: TenantContext, userId: string, input: CardCreate): Promise<SavedCard> {
      const billing = await checkBilling(ctx, userId, input.billingContactMechId);
      const result = await provider.tokenizeCard({
        number: input.cardNumber,
        cvc: input.cvc,
        expMonth: input.expMonth,
        expYear: input.expYear,
        name: input.nameOnCard,
      });
      if (!result.ok) {
        throw result.reason === 'declined'
          ? new AppError(422, 'UNPROCESSABLE', result.message)
          : AppError.badRequest(result.message);
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
          billingContactMechId: billing,
        })
        .returning();
      return toCard(row as typeof sc.$inferSelect);
    },

    async edit(ctx: TenantContext, userId: string, input: CardEdit): Promise<SavedCard> {
      if (expired(input.expMonth, input.expYear))
        throw AppError.field(400, 'BAD_REQUEST', 'expYear', 'this expiry date has passed.');
      const billing = await checkBilling(ctx, userId, input.billingContactMechId);
      const [row] = await db
        .update(sc)
        .set({
          expMonth: input.expMonth,
          expYear: input.expYear,
          nameOnCard: input.nameOnCard,
          billingContactMechId: billing,
        })
        .where(and(eq(sc.tenantId, ctx.tenantId), eq(sc.userId, userId), eq(sc.paymentMethodId, input.paymentMethodId)))
        .returning();
      if (!row) throw AppError.notFound('No such card in your account.');
      return toCard(row);
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
