import { type Db, schema } from '@app/db';
import { and, asc, count, inArray } from 'drizzle-orm';
import type { Config } from './config';

export interface BannerStore {
  storeName: string;
  hosts: string[];
}

/** Stores the banner names one by one; past this it says how many more there are (decision 124). */
export const BANNER_STORES = 10;

/**
 * What `npm start` prints once the server is ready: where each store answers (the first few by
 * id, then how many more: a platform of thousands of stores prints a summary, not thousands of
 * lines), where the demo logins are written down, and where mail goes (the SMTP server's host only:
 * its URL may hold a password).
 */
export function startupBanner(
  stores: BannerStore[],
  config: Pick<Config, 'PORT' | 'SMTP_URL' | 'DATA_DIR' | 'NODE_ENV'>,
  total = stores.length,
): string {
  const port = config.PORT === 80 ? '' : `:${config.PORT}`;
  const lines = [
    '',
    total > BANNER_STORES ? `Stores: ${total.toLocaleString('en')}, the first ${BANNER_STORES}:` : 'Stores:',
  ];
  for (const s of stores.slice(0, BANNER_STORES)) {
    // The *.localhost names open in a browser with no set-up; the others need a hosts entry.
    const host = s.hosts.find((h) => h.endsWith('.localhost')) ?? s.hosts[0];
    if (host) lines.push(`  ${s.storeName.padEnd(24)} http://${host}${port}`);
  }
  const more = total - Math.min(stores.length, BANNER_STORES);
  if (more > 0) lines.push(`  ... and ${more.toLocaleString('en')} more (the operator console lists every store).`);
  if (total === 0) lines.push('  none yet (SEED_ON_START=false and an empty database)');
  lines.push('Demo logins: README.md, section "Demo stores".');
  if (config.SMTP_URL) {
    lines.push(`Mail: sent through the SMTP server ${new URL(config.SMTP_URL).host}.`);
  } else {
    const mailbox = config.NODE_ENV === 'production' ? '' : `, readable at http://localhost${port}/dev/mailbox`;
    lines.push(`Mail: written to ${config.DATA_DIR}/outbox${mailbox}.`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The first stores by id and their host names, and how many stores there are, for the banner: two
 * small reads whatever the number of stores (not every store joined with every host).
 */
export async function bannerStores(db: Db): Promise<{ stores: BannerStore[]; total: number }> {
  const ps = schema.productStores;
  const sh = schema.storeHosts;
  const [stores, [counted]] = await Promise.all([
    db.select().from(ps).orderBy(asc(ps.productStoreId)).limit(BANNER_STORES),
    db.select({ n: count() }).from(ps),
  ]);
  const hosts = stores.length
    ? await db
        .select()
        .from(sh)
        .where(
          and(
            inArray(
              sh.tenantId,
              stores.map((s) => s.tenantId),
            ),
            inArray(
              sh.productStoreId,
              stores.map((s) => s.productStoreId),
            ),
          ),
        )
        .orderBy(asc(sh.hostName))
    : [];
  const list = stores.map((s) => ({
    storeName: s.storeName,
    hosts: [
      s.canonicalHost,
      ...hosts.filter((h) => h.tenantId === s.tenantId && h.productStoreId === s.productStoreId).map((h) => h.hostName),
    ],
  }));
  return { stores: list, total: counted?.n ?? list.length };
}
