import { randomUUID } from 'node:crypto';
import { type Address, type AddressInput, MAX_ADDRESSES, POSTAL_CODE_RULES, postalCodeFits } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, asc, count, desc, eq, ne } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { ok, type Refusal, type Result, refuse, refuseField } from '../../lib/result';
import { COUNTRIES } from '../geo/index';

const pa = schema.postalAddresses;

/**
 * An address we cannot deliver to as written (decision 088): a country we do not ship to, a missing
 * or foreign state or region, a postal code not of the country's form. 400 on the field at fault.
 */
export type PlaceRefusal = Refusal<'BAD_REQUEST'>;
/** Adding an address: the refusals of the place, or the book is full (409). */
export type SaveAddressRefusal = PlaceRefusal | Refusal<'CONFLICT'>;

/** The country and region exist and belong together; the postal code has the country's form. */
export function checkPlace(input: AddressInput): Result<void, PlaceRefusal> {
  const country = COUNTRIES.find((c) => c.geoId === input.countryGeoId);
  if (!country) return refuseField(400, 'BAD_REQUEST', 'countryGeoId', 'we do not ship to this country.');
  if (country.regions.length > 0) {
    if (!input.stateProvinceGeoId)
      return refuseField(
        400,
        'BAD_REQUEST',
        'stateProvinceGeoId',
        `please choose a state or region of ${country.name}.`,
      );
    if (!country.regions.some((r) => r.geoId === input.stateProvinceGeoId)) {
      return refuseField(400, 'BAD_REQUEST', 'stateProvinceGeoId', `this is not a state or region of ${country.name}.`);
    }
  } else if (input.stateProvinceGeoId) {
    return refuseField(400, 'BAD_REQUEST', 'stateProvinceGeoId', `${country.name} addresses have no state or region.`);
  }
  const rule = POSTAL_CODE_RULES[country.geoId];
  if (!postalCodeFits(country.geoId, input.postalCode)) {
    return refuseField(
      400,
      'BAD_REQUEST',
      'postalCode',
      `this is not a postal code of ${country.name}${rule ? ` (for example ${rule.example})` : ''}.`,
    );
  }
  return ok(undefined);
}

const toAddress = (r: typeof pa.$inferSelect): Address => ({
  contactMechId: r.contactMechId,
  toName: r.toName,
  address1: r.address1,
  address2: r.address2,
  city: r.city,
  postalCode: r.postalCode.toUpperCase(),
  countryGeoId: r.countryGeoId,
  stateProvinceGeoId: r.stateProvinceGeoId,
  phone: r.phone,
  isDefaultShipping: r.isDefaultShipping,
  isDefaultBilling: r.isDefaultBilling,
});

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export function createAddressesService(db: Db) {
  /** A new default clears the user's other default of the same kind. */
  async function keepOneDefault(tx: Tx, ctx: TenantContext, userId: string, keep: string, input: AddressInput) {
    const mine = and(eq(pa.tenantId, ctx.tenantId), eq(pa.userId, userId), ne(pa.contactMechId, keep));
    if (input.isDefaultShipping) await tx.update(pa).set({ isDefaultShipping: false }).where(mine);
    if (input.isDefaultBilling) await tx.update(pa).set({ isDefaultBilling: false }).where(mine);
  }

  async function own(ctx: TenantContext, userId: string, contactMechId: string) {
    const [row] = await db
      .select()
      .from(pa)
      .where(and(eq(pa.tenantId, ctx.tenantId), eq(pa.userId, userId), eq(pa.contactMechId, contactMechId)));
    // Another shopper's address is "not found", exactly like one that does not exist.
    if (!row) throw AppError.notFound('No such address in your account.');
    return row;
  }

  return {
    async list(ctx: TenantContext, userId: string): Promise<Address[]> {
      const rows = await db
        .select()
        .from(pa)
        .where(and(eq(pa.tenantId, ctx.tenantId), eq(pa.userId, userId)))
        .orderBy(desc(pa.isDefaultShipping), asc(pa.createdAt));
      return rows.map(toAddress);
    },

    /** Adds an address; the first one becomes the default for shipping and billing. */
    async create(
      ctx: TenantContext,
      userId: string,
      input: AddressInput,
    ): Promise<Result<Address, SaveAddressRefusal>> {
      const place = checkPlace(input);
      if (!place.ok) return place;
      // A full book is found before anything is written: the refusal is returned and the transaction ends.
      return db.transaction(async (tx): Promise<Result<Address, SaveAddressRefusal>> => {
        const [n] = await tx
          .select({ n: count() })
          .from(pa)
          .where(and(eq(pa.tenantId, ctx.tenantId), eq(pa.userId, userId)));
        const existing = n?.n ?? 0;
        if (existing >= MAX_ADDRESSES) {
          return refuse(409, 'CONFLICT', `You can keep up to ${MAX_ADDRESSES} addresses. Please remove one first.`);
        }
        const first = existing === 0;
        const values = {
          ...input,
          isDefaultShipping: first || Boolean(input.isDefaultShipping),
          isDefaultBilling: first || Boolean(input.isDefaultBilling),
        };
        const contactMechId = `CM-${randomUUID()}`;
        await keepOneDefault(tx, ctx, userId, contactMechId, values);
        const [row] = await tx
          .insert(pa)
          .values({ tenantId: ctx.tenantId, contactMechId, userId, ...values })
          .returning();
        return ok(toAddress(row as typeof pa.$inferSelect));
      });
    },

    async update(
      ctx: TenantContext,
      userId: string,
      contactMechId: string,
      input: AddressInput,
    ): Promise<Result<Address, PlaceRefusal>> {
      const place = checkPlace(input);
      if (!place.ok) return place;
      const current = await own(ctx, userId, contactMechId);
      const saved = await db.transaction(async (tx) => {
        // A default stays a default unless another address takes over: unticking alone is ignored.
        const values = {
          ...input,
          isDefaultShipping: current.isDefaultShipping || Boolean(input.isDefaultShipping),
          isDefaultBilling: current.isDefaultBilling || Boolean(input.isDefaultBilling),
        };
        await keepOneDefault(tx, ctx, userId, contactMechId, values);
        const [row] = await tx
          .update(pa)
          .set(values)
          .where(and(eq(pa.tenantId, ctx.tenantId), eq(pa.contactMechId, contactMechId)))
          .returning();
        return toAddress(row as typeof pa.$inferSelect);
      });
      return ok(saved);
    },

    /** Removes an address; a removed default passes to the oldest address left. */
    async remove(ctx: TenantContext, userId: string, contactMechId: string) {
      const current = await own(ctx, userId, contactMechId);
      await db.transaction(async (tx) => {
        await tx.delete(pa).where(and(eq(pa.tenantId, ctx.tenantId), eq(pa.contactMechId, contactMechId)));
        if (!current.isDefaultShipping && !current.isDefaultBilling) return;
        const [next] = await tx
          .select({ id: pa.contactMechId })
          .from(pa)
          .where(and(eq(pa.tenantId, ctx.tenantId), eq(pa.userId, userId)))
          .orderBy(asc(pa.createdAt))
          .limit(1);
        if (!next) return;
        await tx
          .update(pa)
          .set({
            ...(current.isDefaultShipping ? { isDefaultShipping: true } : {}),
            ...(current.isDefaultBilling ? { isDefaultBilling: true } : {}),
          })
          .where(and(eq(pa.tenantId, ctx.tenantId), eq(pa.contactMechId, next.id)));
      });
    },
  };
}

export type AddressesService = ReturnType<typeof createAddressesService>;
