import { type Db, schema } from '@app/db';
import { asc } from 'drizzle-orm';
import type { Config } from './config';

export interface BannerStore {
  storeName: string;
  hosts: string[];
}

/**
 * What `npm start` prints once the server is ready: where each store answers, where the demo logins
 * are written down, and where mail goes (the SMTP server's host only: its URL may hold a password).
 */
export function startupBanner(
  stores: BannerStore[],
  config: Pick<Config, 'PORT' | 'SMTP_URL' | 'DATA_DIR' | 'NODE_ENV'>,
): string {
  const port = config.PORT === 80 ? '' : `:${config.PORT}`;
  const lines = ['', 'Stores:'];
  for (const s of stores) {
    // The *.localhost names open in a browser with no set-up; the others need a hosts entry.
    const host = s.hosts.find((h) => h.endsWith('.localhost')) ?? s.hosts[0];
    if (host) lines.push(`  ${s.storeName.padEnd(24)} http://${host}${port}`);
  }
  if (stores.length === 0) lines.push('  none yet (SEED_ON_START=false and an empty database)');
  lines.push('Demo logins: README.md, section "Demo stores".');
  if (config.SMTP_URL) {
    lines.push(`Mail: sent through the SMTP server ${new URL(config.SMTP_URL).host}.`);
  } else {
    const mailbox = config.NODE_ENV === 'production' ? '' : `, readable at http://localhost${port}/dev/mailbox`;
    lines.push(`Mail: written to ${config.DATA_DIR}/outbox${mailbox}.`);
  }
  return `${lines.join('\n')}\n`;
}

/** The stores and their host names, for the banner. */
export async function bannerStores(db: Db): Promise<BannerStore[]> {
  const ps = schema.productStores;
  const sh = schema.storeHosts;
  const [stores, hosts] = await Promise.all([
    db.select().from(ps).orderBy(asc(ps.productStoreId)),
    db.select().from(sh).orderBy(asc(sh.hostName)),
  ]);
  return stores.map((s) => ({
    storeName: s.storeName,
    hosts: [
      s.canonicalHost,
      ...hosts.filter((h) => h.tenantId === s.tenantId && h.productStoreId === s.productStoreId).map((h) => h.hostName),
    ],
  }));
}
