import { defineModule } from '../../lib/module';
import { homeTransactions } from '../../lib/store-databases';
import { cancelRequestPages } from './cancel-request.pages';
import { cancelRequestRoutes } from './cancel-request.routes';
import { type CancelRequestService, CLOSE_STORE_JOB, createCancelRequestService } from './cancel-request.service';

declare module '../../lib/module' {
  interface ModuleServices {
    'cancel-request': { cancelRequests: CancelRequestService };
  }
}

export const cancelRequestModule = defineModule({
  name: 'cancel-request',
  needs: ['mail', 'audit', 'store-lifecycle', 'jobs'],
  create: ({ stores, events }, { auditFromHome, mailer, storeLifecycle, jobs }) => {
    // The request and the store's move to closing are written in one transaction, so both on the home
    // database, where the store's state is (decision 123); the owner's account is read where the store is.
    const cancelRequests = createCancelRequestService(stores.home.db, {
      events: homeTransactions(stores, events),
      audit: auditFromHome,
      mailer,
      storeLifecycle,
      jobs,
      accountsOf: (tenantId) => stores.movedTo(tenantId)?.db ?? null,
    });
    // Enqueued for the moment a closing store's 30 days end (decision 099). It closes its own store
    // and any other closing store past its date, so a close job that failed for good is made up for
    // by the next one that runs.
    jobs.register(
      CLOSE_STORE_JOB,
      async (job) => {
        await cancelRequests.closeIfDue(job.ctx.tenantId);
        for (const tenantId of await storeLifecycle.dueToClose()) await cancelRequests.closeIfDue(tenantId);
      },
      { maxAttempts: 10 },
    );
    return { cancelRequests };
  },
  routes: (app, { cancelRequests }) => app.register(cancelRequestRoutes, { cancelRequests }),
  pages: ({ cancelRequests }) => [cancelRequestPages({ cancelRequests })],
});
