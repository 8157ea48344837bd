import { defineModule } from '../../lib/module';
import { platformDomainOf, platformHostOf } from '../../lib/platform-host';
import { createFirstRun, type FirstRunService } from './first-run';
import { firstRunPages } from './first-run.pages';
import { createProvisioner, type Provisioner, type ProvisionStep } from './provision';
import { signupPages } from './signup.pages';
import { signupRoutes } from './signup.routes';
import { createSignupService, type SignupService } from './signup.service';

declare module '../../lib/module' {
  interface ModuleServices {
    /**
     * Self-serve sign-up and provisioning (decision 103). `provisioner.provisionStore` opens a store in
     * one transaction: the operator's "create a store for a merchant" calls it too.
     */
    signup: {
      signup: SignupService;
      provisioner: Provisioner;
      provisionStore: Provisioner['provisionStore'];
      firstRun: FirstRunService;
    };
  }
  interface BuildOptions {
    /** Tests: called after each provisioning step, inside its transaction (a throw rolls it all back). */
    provisionFault?: (step: ProvisionStep) => void | Promise<void>;
  }
}

export const signupModule = defineModule({
  name: 'signup',
  needs: ['mail', 'store-lifecycle', 'tenant'],
  create({ db, events, config, options, log, linkOrigin, stores }, { transport, storeLifecycle, visibility }) {
    const platformDomain = platformDomainOf(config);
    const provisioner = createProvisioner(db, {
      events,
      storeLifecycle,
      platformDomain,
      ...(options.provisionFault ? { afterStep: options.provisionFault } : {}),
    });
    const signup = createSignupService(db, {
      transport,
      provisioner,
      log,
      platformName: config.PLATFORM_NAME ?? 'Storefront Platform',
      platformDomain,
      platformHost: platformHostOf(config),
      linkOrigin,
      stores,
    });
    return {
      signup,
      provisioner,
      provisionStore: provisioner.provisionStore,
      firstRun: createFirstRun(db, { visibility }),
    };
  },
  routes: (app, { signup }, { config }) => app.register(signupRoutes, { signup, config }),
  platformPages: ({ signup }, { config, linkOrigin }) => [
    signupPages({
      signup,
      platformName: config.PLATFORM_NAME ?? 'Storefront Platform',
      // What linkOrigin puts after a host (":3000" in development), after the platform's domain.
      hostSuffix: `.${platformDomainOf(config)}${new URL(linkOrigin('x.invalid')).port ? `:${new URL(linkOrigin('x.invalid')).port}` : ''}`,
    }),
  ],
  pages: ({ firstRun }) => [firstRunPages({ firstRun })],
});
