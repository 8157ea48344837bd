import type { Profile } from '../auth';
import type { FormOutcome, LoginOutcome, RegisterField, RegisterOutcome, SessionUser } from '../storefront';

/** Accounts: who is signed in, logging in and out, signing up, passwords, My Profile. */
export interface AuthPages {
  user(): Promise<SessionUser | null>;
  /** The signed-in user's own details, or null when nobody is signed in. */
  profile(): Promise<Profile | null>;
  /**
   * Logs in; on success `cookies` are the Set-Cookie headers the page response must carry (the
   * session, and the guest cart's cookie cleared once that cart joined the account's).
   * `wishlistProductId` is a guest's heart carried through the login form: the product goes on the
   * wishlist once logged in, and is dropped without a word when it is not one of this store's.
   */
  login(input: { email: string; password: string; wishlistProductId?: string }): Promise<LoginOutcome>;
  /**
   * Creates an account, unconfirmed: nobody is logged in, a new email and a taken one get the same
   * message (decision 022). The welcome mail's link comes back to `redirectUrl` with the
   * `wishlistProductId` carried, once confirmed.
   */
  register(
    input: Record<RegisterField | 'phone', string> & { wishlistProductId?: string; redirectUrl?: string },
  ): Promise<RegisterOutcome>;
  /** Confirms the email of a link from the welcome mail and logs in, as `login` does. */
  confirmEmail(input: { token: string; wishlistProductId?: string }): Promise<LoginOutcome>;
  /** Mails a new confirmation link when the email has an unconfirmed account; the same answer either way. */
  resendConfirmation(email: string): Promise<{ ok: true; message: string } | FormOutcome<'email'>>;
  /** Mails a reset link when the email has an account; the same answer either way. */
  forgotPassword(email: string): Promise<{ ok: true; message: string } | FormOutcome<'email'>>;
  /** Sets a new password from a reset link; `cookie` clears any session in this browser. */
  resetPassword(input: {
    token: string;
    password: string;
  }): Promise<{ ok: true; message: string; cookie: string } | FormOutcome<'token' | 'password'>>;
  /** Saves My Profile for the signed-in user. */
  updateProfile(
    input: Record<'firstName' | 'lastName' | 'email' | 'phone' | 'currentPassword', string>,
  ): Promise<
    | { ok: true; message: string; profile: Profile }
    | FormOutcome<'firstName' | 'lastName' | 'email' | 'phone' | 'currentPassword'>
  >;
  /** Changes the signed-in user's password; other sessions end. */
  changePassword(input: {
    currentPassword: string;
    newPassword: string;
  }): Promise<{ ok: true; message: string } | FormOutcome<'currentPassword' | 'newPassword'>>;
  /** Ends the request's session; `cookie` clears it in the browser. */
  /** `cookie: null` when the post was refused (no CSRF token): the session stays. */
  logout(): Promise<{ cookie: string | null }>;
}
