import { productFieldsSchema } from '@app/contracts';
import { type Db, schema } from '@app/db';
import { and, eq, like } from 'drizzle-orm';
import { z } from 'zod';
import type { App } from '../lib/app-types';
import type { RequestContext } from '../lib/context';
import { AppError } from '../lib/errors';
import { createAuditService } from '../modules/audit/index';
import { writeProduct } from '../modules/product-admin/index';

/**
 * Browser tests only: e2e/start-server.mjs sets E2E_FIXTURES=1 and server.ts registers these on a
 * development server, never in production. A spec creates and changes its own products through
 * writeProduct (the editor's and the import's one writer) as the store's owner, with the same
 * catalog.changed event after commit, since the editor's HTTP routes are another area's.
 */
const bodySchema = z.strictObject({
  productId: z.string().max(64).optional(),
  fields: z.record(z.string(), z.unknown()),
  /** Give the product this many pictures (the store's seeded product pictures, as media rows). */
  pictures: z.number().int().min(0).max(4).optional(),
});

export const e2eFixtureRoutes = (database: Db) => async (app: App) => {
  app.post('/__e2e/catalog/product', async (req) => {
    const body = bodySchema.parse(req.body);
    const [owner] = await database
      .select()
      .from(schema.users)
      .where(and(eq(schema.users.tenantId, req.ctx.tenantId), eq(schema.users.role, 'admin')))
      .limit(1);
    if (!owner) throw AppError.notFound('no owner');
    const ctx: RequestContext = {
      ...req.ctx,
      actor: {
        kind: 'staff',
        role: 'admin',
        permissions: new Set(),
        userId: owner.userId,
        firstName: owner.firstName ?? 'Owner',
        userLoginId: owner.email,
        session: { token: 'e2e', via: 'cookie' },
      },
    };
    const fields = productFieldsSchema.parse(body.fields);
    const productId = await app.events.transaction(async (tx) => {
      const result = await writeProduct(
        tx,
        ctx,
        { audit: createAuditService(database) },
        { productId: body.productId, fields },
      );
      if (!result.ok) throw AppError.badRequest(result.message);
      if (body.pictures) {
        const seeded = await tx
          .select({ url: schema.products.detailImageUrl })
          .from(schema.products)
          .where(and(eq(schema.products.tenantId, ctx.tenantId), like(schema.products.detailImageUrl, '/media/%')))
          .limit(body.pictures);
        await tx
          .delete(schema.productImages)
          .where(
            and(eq(schema.productImages.tenantId, ctx.tenantId), eq(schema.productImages.productId, result.productId)),
          );
        for (const [i, s] of seeded.entries()) {
          const mediaId = `e2e-${result.productId}-${i}`;
          await tx
            .insert(schema.media)
            .values({
              tenantId: ctx.tenantId,
              mediaId,
              storageKey: (s.url as string).slice('/media/'.length),
              contentType: 'image/webp',
              width: 800,
              height: 800,
              bytes: 1,
              sourceFormat: 'webp',
            })
            .onConflictDoNothing();
          await tx.insert(schema.productImages).values({
            tenantId: ctx.tenantId,
            productId: result.productId,
            mediaId,
            altText: `${fields.productName}, view ${i + 1}`,
            sequenceNum: i,
          });
        }
      }
      app.events.emitAfterCommit(tx, 'catalog.changed', { tenantId: ctx.tenantId, productIds: [result.productId] });
      return result.productId;
    });
    return { data: { productId } };
  });
};
