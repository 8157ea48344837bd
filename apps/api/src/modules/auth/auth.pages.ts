import {
  type AuthPages,
  CONFIRM_INVALID_MESSAGE,
  CONFIRM_RESENT_MESSAGE,
  confirmEmailRequestSchema,
  FORGOT_MESSAGE,
  forgotPasswordQuerySchema,
  loginRequestSchema,
  PASSWORD_CHANGED_MESSAGE,
  PROFILE_SAVED_MESSAGE,
  passwordChangeSchema,
  profileUpdateSchema,
  REGISTER_MESSAGE,
  RESET_DONE_MESSAGE,
  registerRequestSchema,
  resendConfirmationRequestSchema,
  resetPasswordRequestSchema,
  type SessionUser,
} from '@app/contracts';
import { requireSignedIn } from '../../lib/access';
import { type RequestContext, signedInUser } from '../../lib/context';
import { fieldFailure, formFailure, type PageModule, type PageRequest, submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import type { AuthService } from './auth.service';
import { clearedSessionCookie, sessionCookie } from './session-token';

export interface AuthPagesDeps {
  auth: AuthService;
  /**
   * Runs once a browser has a new session (login, a confirmed sign-up): the guest cart joins the account's and a
   * heart carried through the form goes on the wishlist. Returns cookies to set.
   */
  afterLogin(page: PageRequest, userId: string, carried: { wishlistProductId?: string }): Promise<string[]>;
}

/** The header's user of a context: the clients' user type is `partyId`. */
export function sessionUserOf(ctx: RequestContext): SessionUser | null {
  const user = signedInUser(ctx);
  if (!user) return null;
  return {
    userId: user.userId,
    firstName: user.firstName,
    partyId: ctx.actor.kind === 'staff' ? ctx.actor.role : 'shopper',
    userLoginId: user.userLoginId,
  };
}

export function authPages(deps: AuthPagesDeps): PageModule<AuthPages> {
  const { auth } = deps;
  return (page) => {
    const { ctx } = page;
    const client = () => ({ ip: ctx.ip, userAgent: page.headers['user-agent'] ?? null });
    return {
      user: async () => sessionUserOf(ctx),
      async profile() {
        const user = signedInUser(ctx);
        return user ? auth.profile(ctx, user.userId) : null;
      },
      async login(input) {
        const { wishlistProductId, ...credentials } = input;
        const parsed = loginRequestSchema.safeParse(credentials);
        if (!parsed.success) return fieldFailure(parsed.error, ['email', 'password']);
        return submitForm([], async () => {
          page.assertFormFromStore();
          const result = await auth.login(ctx, parsed.data, {
            ...client(),
            previousToken: signedInUser(ctx)?.session.token,
          });
          if (!result.ok) return formRefusal(result);
          const r = result.value;
          const extra = await deps.afterLogin(page, r.userId, { wishlistProductId });
          return {
            ok: true as const,
            user: { userId: r.userId, firstName: r.firstName, partyId: r.partyId, userLoginId: r.userLoginId },
            cookies: [sessionCookie(r.token, new Date(r.expiresAt), page.secure), ...extra],
          };
        });
      },
      async register(input) {
        const { wishlistProductId, redirectUrl, ...fields } = input;
        const parsed = registerRequestSchema.safeParse(fields);
        if (!parsed.success) return fieldFailure(parsed.error, ['firstName', 'lastName', 'email', 'password', 'phone']);
        return submitForm([], async () => {
          page.assertFormFromStore();
          // Nobody is logged in here, new email or taken: the welcome mail's link does that (decision 022).
          const r = await auth.register(ctx, parsed.data, client(), { redirectUrl, wishlist: wishlistProductId });
          if (!r.ok) return formRefusal(r);
          return { ok: true as const, message: REGISTER_MESSAGE };
        });
      },
      async confirmEmail(input) {
        const parsed = confirmEmailRequestSchema.safeParse({ token: input.token });
        // A mangled link is said like a used one: there is no field to correct.
        if (!parsed.success) return { ok: false, status: 400, message: CONFIRM_INVALID_MESSAGE, fieldErrors: {} };
        return submitForm([], async () => {
          page.assertFormFromStore();
          const result = await auth.confirmEmail(ctx, parsed.data.token, {
            ...client(),
            previousToken: signedInUser(ctx)?.session.token,
          });
          if (!result.ok) return formRefusal(result);
          const r = result.value;
          const extra = await deps.afterLogin(page, r.userId, { wishlistProductId: input.wishlistProductId });
          return {
            ok: true as const,
            user: { userId: r.userId, firstName: r.firstName, partyId: r.partyId, userLoginId: r.userLoginId },
            cookies: [sessionCookie(r.token, new Date(r.expiresAt), page.secure), ...extra],
          };
        });
      },
      async resendConfirmation(email) {
        const parsed = resendConfirmationRequestSchema.safeParse({ email });
        if (!parsed.success) return fieldFailure(parsed.error, ['email']);
        return submitForm([], async () => {
          page.assertFormFromStore();
          const r = await auth.resendConfirmation(ctx, parsed.data.email, { ip: ctx.ip });
          if (!r.ok) return formRefusal(r);
          return { ok: true as const, message: CONFIRM_RESENT_MESSAGE };
        });
      },
      async forgotPassword(email) {
        const parsed = forgotPasswordQuerySchema.safeParse({ email });
        if (!parsed.success) return fieldFailure(parsed.error, ['email']);
        return submitForm([], async () => {
          page.assertFormFromStore();
          const r = await auth.forgotPassword(ctx, parsed.data.email, { ip: ctx.ip });
          if (!r.ok) return formRefusal(r);
          return { ok: true as const, message: FORGOT_MESSAGE };
        });
      },
      async resetPassword(input) {
        const parsed = resetPasswordRequestSchema.safeParse(input);
        if (!parsed.success) return fieldFailure(parsed.error, ['token', 'password']);
        try {
          page.assertFormFromStore();
        } catch (err) {
          return formFailure(err);
        }
        const r = await auth.resetPassword(ctx, parsed.data, { ip: ctx.ip });
        // A used or expired link (and the limit) is said above the form, not next to a field.
        if (!r.ok) return formRefusal(r);
        return { ok: true as const, message: RESET_DONE_MESSAGE, cookie: clearedSessionCookie(page.secure) };
      },
      async updateProfile(input) {
        const fields = ['firstName', 'lastName', 'email', 'phone', 'currentPassword'] as const;
        const parsed = profileUpdateSchema.safeParse({ ...input, currentPassword: input.currentPassword || undefined });
        if (!parsed.success) return fieldFailure(parsed.error, fields);
        return submitForm(fields, async () => {
          page.assertFormFromStore();
          const me = requireSignedIn(ctx);
          const saved = await auth.updateProfile(ctx, me.userId, parsed.data);
          if (!saved.ok) return formRefusal(saved, fields);
          return { ok: true as const, message: PROFILE_SAVED_MESSAGE, profile: saved.value };
        });
      },
      async changePassword(input) {
        const fields = ['currentPassword', 'newPassword'] as const;
        const parsed = passwordChangeSchema.safeParse(input);
        if (!parsed.success) return fieldFailure(parsed.error, fields);
        return submitForm(fields, async () => {
          page.assertFormFromStore();
          const me = requireSignedIn(ctx);
          const changed = await auth.changePassword(ctx, me.userId, me.session.token, parsed.data);
          if (!changed.ok) return formRefusal(changed, fields);
          return { ok: true as const, message: PASSWORD_CHANGED_MESSAGE };
        });
      },
      async logout() {
        // A forged logout (no token) changes nothing.
        try {
          page.assertFormFromStore();
        } catch {
          return { cookie: null };
        }
        const token = signedInUser(ctx)?.session.token;
        if (token) await auth.logout(ctx, token);
        return { cookie: clearedSessionCookie(page.secure) };
      },
    };
  };
}
