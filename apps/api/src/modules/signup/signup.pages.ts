import { SIGNUP_FIELDS, type SignupPages } from '@app/contracts';
import { type PlatformPageModule, submitForm } from '../../lib/page-request';
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
    // A post from another origin or without this browser's token is the form's 403, not a fault.
    signup: (form) =>
      submitForm(SIGNUP_FIELDS, async () => {
        page.assertFormFromPlatform();
        return deps.signup.request(form, { ip: page.ip });
      }),
    subdomainAvailability: (subdomain) => deps.signup.availability(subdomain),
    async confirmSignup(token) {
      const refused = await submitForm([], async () => page.assertFormFromPlatform());
      if (refused) return { ok: false, status: 403, message: refused.message };
      const result = await deps.signup.confirm(token);
      if (result.ok) return { ok: true, ...result.value };
      return { ok: false, status: result.status === 409 ? 409 : 404, message: result.message };
    },
  });
}
