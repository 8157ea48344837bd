import { type Db, schema } from '@app/db';
import { and, eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { RequestContext } from '../../lib/context';
import { type LifecyclePageKind, lifecyclePageKind, stateOf } from './lifecycle-rules';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const PAGES: Record<LifecyclePageKind, { status: number; kicker: string; title: string; text: string }> = {
  unavailable: {
    status: 503,
    kicker: 'Temporarily unavailable',
    title: 'is temporarily unavailable.',
    text: 'The store cannot take visits or orders at the moment. Please come back later.',
  },
  closed: {
    status: 410,
    kicker: 'Store closed',
    title: 'is closed.',
    text: 'This store no longer takes visits or orders. Thank you to everyone who shopped here.',
  },
  'not-open': {
    status: 503,
    kicker: 'Opening soon',
    title: 'has not opened yet.',
    text: 'The store is being set up. Please come back soon.',
  },
};

/**
 * The page a store that is not open answers (decision 099): the store's name and what its state
 * means, nothing of its catalog; made by the server alone (no scripts, no loaders), so it costs one
 * indexed read and works for every client.
 */
export function lifecyclePages(db: Db) {
  async function storeName(ctx: RequestContext): Promise<string> {
    const [row] = await db
      .select({ name: schema.productStores.storeName })
      .from(schema.productStores)
      .where(
        and(
          eq(schema.productStores.tenantId, ctx.tenantId),
          eq(schema.productStores.productStoreId, ctx.productStoreId),
        ),
      );
    return row?.name ?? ctx.hostName;
  }

  return {
    /** Sends the state's page instead of `path` when the state says so; false to render the page. */
    async sendIfNotOpen(ctx: RequestContext, path: string, reply: FastifyReply): Promise<boolean> {
      const kind = lifecyclePageKind(ctx, path);
      if (!kind) return false;
      const page = PAGES[kind];
      const name = escapeHtml(await storeName(ctx));
      const state = stateOf(ctx);
      // The owner may still sign in to a suspended or closing store (to read the dashboard, to export).
      const signIn =
        state === 'suspended' || state === 'closing' || state === 'provisioning'
          ? '<p class="o"><a href="/auth/login?redirectUrl=%2Fmanage-store">Store owner? Sign in</a></p>'
          : '';
      const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${name}: ${page.kicker}</title>
<style>body{margin:0;font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a}main{max-width:32rem;margin:0 auto;padding:6rem 1rem;text-align:center}p.k{font-size:.875rem;font-weight:600;letter-spacing:.05em;text-transform:uppercase;color:#475569}h1{font-size:1.875rem;margin:.75rem 0}p{color:#334155}p.o{margin-top:3rem;font-size:.875rem}a{color:#1d4ed8}</style>
</head><body><main id="main"><p class="k">${page.kicker}</p><h1>${name} ${page.title}</h1>
<p>${page.text}</p>${signIn}</main></body></html>`;
      reply
        .code(page.status)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header(
          'content-security-policy',
          "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        );
      if (page.status === 503) reply.header('retry-after', '3600');
      await reply.send(html);
      return true;
    },
  };
}

export type LifecyclePages = ReturnType<typeof lifecyclePages>;
