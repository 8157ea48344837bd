import { defineModule } from '../../lib/module';
import { HOME_DATABASE, homeTransactions } from '../../lib/store-databases';
import { canonicalHostsOf, writeCanonicalHostCopy } from '../tenant/index';
import { createDnsChecker } from './dns-check';
import { domainsPages } from './domains.pages';
import { domainsRoutes } from './domains.routes';
import { createDomainsService, type DomainsService } from './domains.service';
import { primaryHostRedirect } from './primary-host-redirect';

declare module '../../lib/module' {
  interface ModuleServices {
    /** A store's own domains, their DNS checks and its primary host (decision 121). */
    domains: { domains: DomainsService };
  }
}

export const domainsModule = defineModule({
  name: 'domains',
  needs: ['audit', 'jobs', 'mail', 'store-lifecycle'],
  create: ({ stores, events, config, linkOrigin }, { auditFromHome, jobs, mailer, storeLifecycle }) => {
    const platformDomain = config.PLATFORM_DOMAIN ?? 'localhost';
    return {
      // A store's domains bind its hosts, which tenancy and the proxy's certificate question read on
      // the home database before the store is known: read and written there (decision 123).
      domains: createDomainsService(stores.home.db, {
        audit: auditFromHome,
        events: homeTransactions(stores, events),
        jobs,
        mailer,
        linkOrigin,
        accountsOf: (tenantId) => stores.movedTo(tenantId)?.db ?? null,
        check: createDnsChecker(config.DNS_RESOLVER),
        targets: {
          cname: config.DOMAIN_CNAME_TARGET ?? `shops.${platformDomain}`,
          a: config.DOMAIN_A_TARGET ?? '192.0.2.10',
          // In the form DNS answers carry (lower case, zeros compressed), so the check compares like with like.
          aaaa: config.DOMAIN_AAAA_TARGET && new URL(`http://[${config.DOMAIN_AAAA_TARGET}]/`).hostname.slice(1, -1),
        },
        platformHost: config.PLATFORM_HOST ?? 'platform.localhost',
        platformDomain,
        stateOf: storeLifecycle.stateOf,
        async copyPrimaryHost(ctx, host) {
          const own = stores.movedTo(ctx.tenantId)?.db;
          if (own) await writeCanonicalHostCopy(own, ctx, host);
        },
        movedStores: () =>
          [...stores.movedStores()].flatMap(([database, tenantIds]) => (database === HOME_DATABASE ? [] : tenantIds)),
        async repairPrimaryHostCopy(ctx) {
          const own = stores.movedTo(ctx.tenantId)?.db;
          if (!own) return;
          for (const s of await canonicalHostsOf(stores.home.db, ctx.tenantId))
            if (s.host) await writeCanonicalHostCopy(own, { ...ctx, productStoreId: s.productStoreId }, s.host);
        },
      }),
    };
  },
  async routes(app, { domains }, { linkOrigin }) {
    await app.register(primaryHostRedirect, { domains, linkOrigin });
    await app.register(domainsRoutes, { domains });
  },
  pages: ({ domains }) => [domainsPages({ domains })],
  events: ({ domains }) => ({
    'settings.changed': ({ tenantId }) => domains.forget(tenantId),
    'events.missed': () => domains.forget(),
  }),
});
