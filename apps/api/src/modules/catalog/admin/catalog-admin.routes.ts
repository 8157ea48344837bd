import {
  categoryCreateSchema,
  categoryDeleteSchema,
  categoryDetailSchema,
  categoryLookupQuerySchema,
  categoryLookupSchema,
  categoryMoveSchema,
  categoryQuerySchema,
  categoryRollupSchema,
  categoryUpdateSchema,
  createProductStoreCatalogSchema,
  dataEnvelope,
  deleteProductStoreCatalogSchema,
  prodCatalogCategoriesReorderSchema,
  prodCatalogCategoriesSchema,
  prodCatalogCategoryDeleteSchema,
  prodCatalogCategorySchema,
  prodCatalogQuerySchema,
  rollupParentChangeSchema,
  rollupParentDeleteSchema,
  rollupParentSchema,
  storeCatalogsQuerySchema,
  storeCatalogsSchema,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../../lib/app-types';
import { changeErrors } from '../../../lib/app-types';
import { sendRefusal } from '../../../plugins/errors';
import type { CatalogAdminService } from './catalog-admin.service';

const BASE = '/skulocity/api/v1/catalog';
const ABOUT =
  "The store owner, or staff with the 'catalog' permission: a visitor gets 401, a shopper or other staff 403; " +
  "another site's ids are 404. Every change is audited and the storefront (category bar, footer, category pages) follows at once.";
const config = { permission: 'catalog' as const };
const tags = ['catalog-admin'];

/** And the category writes in the same style (decision 035). */
export async function catalogAdminRoutes(app: App, { catalogAdmin: svc }: { catalogAdmin: CatalogAdminService }) {
  app.addHook('onSend', async (req, reply) => {
    if (req.url.startsWith(BASE)) reply.header('cache-control', 'private, no-store');
  });
  const catalogsReply = { 200: dataEnvelope(storeCatalogsSchema), ...changeErrors };
  const contentReply = { 200: dataEnvelope(prodCatalogCategoriesSchema), ...changeErrors };
  const rollupReply = { 200: dataEnvelope(categoryRollupSchema), ...changeErrors };
  const categoryReply = { 200: dataEnvelope(categoryDetailSchema), ...changeErrors };

  app.get(
    `${BASE}/stores/editproductstorecatalogs`,
    {
      config,
      schema: {
        tags,
        summary: "The store's catalogs in order (and the site's unlinked ones)",
        description: ABOUT,
        querystring: storeCatalogsQuerySchema,
        response: catalogsReply,
      },
    },
    async (req) => ({ data: await svc.storeCatalogs(req.ctx, req.query.productStoreId) }),
  );
  app.post(
    `${BASE}/stores/createproductstorecatalog`,
    {
      config,
      schema: {
        tags,
        summary: 'Link an existing catalog (prodCatalogId) or a new one (catalogName) to the store, at sequenceNum',
        description:
          `${ABOUT} A catalog another store shows is 409. For a linked catalog this is a patch (catalogName left ` +
          'out keeps its name). One catalog as `GET .../stores/editproductstorecatalogs` lists it can be sent back ' +
          'as it is (categoryCount is read-only); linking a catalog where it already stands, as named, writes nothing.',
        body: createProductStoreCatalogSchema,
        response: catalogsReply,
      },
    },
    async (req, reply) => {
      const r = await svc.linkCatalog(req.ctx, req.body);
      if (!r.ok) return sendRefusal(reply, r);
      return { data: r.value };
    },
  );
  app.post(
    `${BASE}/stores/deleteproductstorecatalog`,
    {
      config,
      schema: {
        tags,
        summary: 'Unlink a catalog from the store (the catalog and its categories are kept)',
        description: ABOUT,
        body: deleteProductStoreCatalogSchema,
        response: catalogsReply,
      },
    },
    async (req) => ({ data: await svc.unlinkCatalog(req.ctx, req.body) }),
  );

  app.get(
    `${BASE}/category/content/editProdCatalogCategories`,
    {
      config,
      schema: {
        tags,
        summary: "A catalog's top categories, in order",
        description: ABOUT,
        querystring: prodCatalogQuerySchema,
        response: contentReply,
      },
    },
    async (req) => ({ data: await svc.catalogCategories(req.ctx, req.query.prodCatalogId) }),
  );
  app.post(
    `${BASE}/category/content/createProdCatalogCategory`,
    {
      config,
      schema: {
        tags,
        summary: "Add a top category to a catalog (last, or at sequenceNum), or change an existing one's sequenceNum",
        description: ABOUT,
        body: prodCatalogCategorySchema,
        response: contentReply,
      },
    },
    async (req) => ({ data: await svc.addCatalogCategory(req.ctx, req.body) }),
  );
  app.post(
    `${BASE}/category/content/deleteProdCatalogCategory`,
    {
      config,
      schema: {
        tags,
        summary: 'Remove a top category from a catalog (the category itself stays)',
        description: ABOUT,
        body: prodCatalogCategoryDeleteSchema,
        response: contentReply,
      },
    },
    async (req) => ({ data: await svc.removeCatalogCategory(req.ctx, req.body) }),
  );
  app.post(
    `${BASE}/category/content/reorderProdCatalogCategories`,
    {
      config,
      schema: {
        tags,
        summary: "Put a catalog's top categories in this order (every one exactly once)",
        description: ABOUT,
        body: prodCatalogCategoriesReorderSchema,
        response: contentReply,
      },
    },
    async (req) => ({ data: await svc.reorderCatalogCategories(req.ctx, req.body) }),
  );

  app.get(
    `${BASE}/category/rollup/editrollup`,
    {
      config,
      schema: {
        tags,
        summary: "A category's parents and children (and the catalogs it tops)",
        description: ABOUT,
        querystring: categoryQuerySchema,
        response: rollupReply,
      },
    },
    async (req) => ({ data: await svc.rollup(req.ctx, req.query.productCategoryId) }),
  );
  const cycleNote = ' A link that would put a category inside itself is 409, naming both categories.';
  app.post(
    `${BASE}/category/rollup/create/parent`,
    {
      config,
      schema: {
        tags,
        summary: 'Add a parent link (the category goes last among its new siblings, or at sequenceNum)',
        description: `${ABOUT}${cycleNote} An existing link is 409 (use PUT).`,
        body: rollupParentSchema,
        response: rollupReply,
      },
    },
    async (req, reply) => {
      const r = await svc.addParent(req.ctx, req.body);
      if (!r.ok) return sendRefusal(reply, r);
      return { data: r.value };
    },
  );
  app.put(
    `${BASE}/category/rollup/create/parent`,
    {
      config,
      schema: {
        tags,
        summary:
          'Change a parent link: its sequenceNum, or (with fromParentProductCategoryId) move it to another parent',
        description: `${ABOUT}${cycleNote}`,
        body: rollupParentChangeSchema,
        response: rollupReply,
      },
    },
    async (req, reply) => {
      const r = await svc.changeParent(req.ctx, req.body);
      if (!r.ok) return sendRefusal(reply, r);
      return { data: r.value };
    },
  );
  app.post(
    `${BASE}/category/rollup/delete/parent`,
    {
      config,
      schema: {
        tags,
        summary: 'Remove a parent link',
        description: ABOUT,
        body: rollupParentDeleteSchema,
        response: rollupReply,
      },
    },
    async (req) => ({ data: await svc.removeParent(req.ctx, req.body) }),
  );
  app.post(
    `${BASE}/category/rollup/move`,
    {
      config,
      schema: {
        tags,
        summary:
          "Move a category from a catalog's top or a parent to another, at a position (the dashboard's drag and drop)",
        description: `${ABOUT}${cycleNote}`,
        body: categoryMoveSchema,
        response: rollupReply,
      },
    },
    async (req, reply) => {
      const r = await svc.move(req.ctx, req.body);
      if (!r.ok) return sendRefusal(reply, r);
      return { data: r.value };
    },
  );

  app.get(
    `${BASE}/autocomplete/LookupProductCategory`,
    {
      config,
      schema: {
        tags,
        summary: 'Categories whose id or name starts with productCategoryId (case-insensitive), for pickers',
        description: ABOUT,
        querystring: categoryLookupQuerySchema,
        response: { 200: dataEnvelope(categoryLookupSchema), ...changeErrors },
      },
    },
    async (req) => ({ data: await svc.lookup(req.ctx, req.query.productCategoryId) }),
  );

  app.get(
    `${BASE}/category/editcategory`,
    {
      config,
      schema: {
        tags,
        summary: "A category's own fields, with its product and subcategory counts",
        description: ABOUT,
        querystring: categoryQuerySchema,
        response: categoryReply,
      },
    },
    async (req) => ({ data: await svc.category(req.ctx, req.query.productCategoryId) }),
  );
  app.post(
    `${BASE}/category/createcategory`,
    {
      config,
      schema: {
        tags,
        summary: "Create a category, at a catalog's top (prodCatalogId) or under a parent (parentProductCategoryId)",
        description: `${ABOUT} The picture: mediaId (this store's media library, POST /api/media/upload) or linkTwoImageUrl (http).`,
        body: categoryCreateSchema,
        response: categoryReply,
      },
    },
    async (req, reply) => {
      const r = await svc.createCategory(req.ctx, req.body);
      if (!r.ok) return sendRefusal(reply, r);
      return { data: r.value };
    },
  );
  app.put(
    `${BASE}/category/updatecategory`,
    {
      config,
      // The category named is looked up before the rest of the body is judged (another store's id is
      // a 404 whatever the body), and the read's own fields are taken back.
      preValidation: async (req) => {
        req.body = (await svc.categoryUpdateBody(req.ctx, req.body)) as typeof req.body;
      },
      schema: {
        tags,
        summary: "Change a category's name, description, picture and SEO title and description",
        description:
          `${ABOUT} A patch: fields left out keep their values; without mediaId or linkTwoImageUrl the picture ` +
          'is kept; removeImage drops it. What `GET .../category/editcategory` answers can be sent back as it is ' +
          '(productCount, childCount and imageMediaId are read-only: taken when as read, else a 400 naming them; ' +
          'linkTwoImageUrl as read keeps the picture). A write that changes nothing writes nothing.',
        body: categoryUpdateSchema,
        response: categoryReply,
      },
    },
    async (req) => ({ data: await svc.updateCategory(req.ctx, req.body) }),
  );
  app.post(
    `${BASE}/category/deletecategory`,
    {
      config,
      schema: {
        tags,
        summary: 'Delete a category; refused (409, with the reason) while it has products or subcategories',
        description: ABOUT,
        body: categoryDeleteSchema,
        response: { 200: dataEnvelope(z.object({ productCategoryId: z.string() })), ...changeErrors },
      },
    },
    async (req, reply) => {
      const r = await svc.deleteCategory(req.ctx, req.body.productCategoryId);
      if (!r.ok) return sendRefusal(reply, r);
      return { data: r.value };
    },
  );
}
