import type { SignupPages } from '@app/contracts';
import type { PlatformPageModule } from '../../lib/page-request';
import type { SignupService } from './signup.service';

/** The platform host's sign-up pages (routes/platform/signup*.tsx). */
export function signupPages(deps: {
  signup: SignupService;
  platformName: string;
  /** ".localhost:3000": what a store's host adds to its subdomain, as the browser shows it. */
  hostSuffix: string;
}): PlatformPageModule<SignupPages> {
  return (page) => ({
    async signupPage() {
      return { platformName: deps.platformName, hostSuffix: deps.hostSuffix };
    },
    async signup(form) {
      page.assertFormFromPlatform();
      return deps.signup.request(form, { ip: page.ip });
    },
    subdomainAvailability: (subdomain) => deps.signup.availability(subdomain),
    async confirmSignup(token) {
      page.assertFormFromPlatform();
      const result = await deps.signup.confirm(token);
      if (result.ok) return { ok: true, ...result.value };
      return { ok: false, status: result.status === 409 ? 409 : 404, message: result.message };
    },
  });
}
