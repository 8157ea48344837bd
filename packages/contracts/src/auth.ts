import { z } from 'zod';

/** Accounts and sessions. */

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'The email address is too long.')
  .pipe(z.email('Please enter a valid email address.'));

export const loginRequestSchema = z.strictObject({
  email,
  // Never trimmed: a password may begin or end with a space. Capped so argon2 is not fed megabytes.
  password: z.string().min(1, 'Please enter your password.').max(200, 'The password is too long.'),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** What the clients' client keeps after a login: first name, user type (partyId) and login id. */
export const sessionUserSchema = z.object({
  userId: z.string(),
  firstName: z.string(),
  partyId: z.enum(['admin', 'staff', 'shopper']),
  userLoginId: z.string(),
});

export const loginResultSchema = sessionUserSchema.extend({
  /** For API clients that send `Authorization: Bearer`; the web app uses the httpOnly cookie. */
  token: z.string(),
  expiresAt: z.string(),
  /** For a client that keeps the cookie instead: send it as `X-CSRF-Token` with each change. */
  csrfToken: z.string(),
});
export type LoginResult = z.infer<typeof loginResultSchema>;

export const profileSchema = z.object({
  userId: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  partyId: z.enum(['admin', 'staff', 'shopper']),
  createdAt: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

/** The one answer to a failed login, whether or not the email has an account (no enumeration). */
export const LOGIN_FAILED_MESSAGE = 'The email or password is incorrect.';

/** Passwords people reach for first; refused whatever their length. */
const COMMON_PASSWORDS = new Set([
  'password123',
  'password1234',
  '1234567890',
  '12345678910',
  'qwertyuiop',
  'iloveyou123',
  'letmein1234',
  'welcome123',
  'administrator',
  'passw0rd123',
]);

/** The strength rule of every new password (sign-up, reset, change). */
const newPassword = z
  .string()
  .min(10, 'Use at least 10 characters for your password.')
  .max(200, 'The password is too long.')
  .refine((v) => !COMMON_PASSWORDS.has(v.toLowerCase()), 'This password is too common. Please choose another.')
  .refine((v) => new Set(v).size >= 4, 'This password is too easy to guess. Please choose another.');

const name = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `Please enter your ${label}.`)
    .max(50, `Your ${label} is longer than 50 characters.`)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
    .refine((v) => !/[\u0000-\u001f<>]/.test(v), `Your ${label} has characters a name cannot have.`);

const phone = z
  .string()
  .trim()
  .max(20, 'The phone number is too long.')
  .regex(/^\+?[0-9 ()-]{7,20}$/, 'Please enter a phone number of digits, spaces, +, - or brackets.');

/**
 * Registration (payload not shown). Strict: a `role`, `partyId` or any other field is
 * refused, so nobody registers themselves as a store owner.
 */
export const registerRequestSchema = z
  .strictObject({
    firstName: name('first name'),
    lastName: name('last name'),
    email,
    password: newPassword,
    phone: phone.optional().or(z.literal('').transform(() => undefined)),
  })
  .refine((v) => !v.password.toLowerCase().includes(v.email.split('@')[0] ?? '\u0000'), {
    path: ['password'],
    message: 'Your password must not contain your email address.',
  });
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

/**
 * The one answer to a registration, whether the email was new or already had an account: a stranger
 * learns nothing from it. The owner of an existing account is told by email instead.
 */
export const REGISTER_MESSAGE =
  'Thanks for signing up! We have sent you an email about your account: follow its link to confirm your address.';

/** A new account logs in only once its email is confirmed (decision 022): said to whoever knows the password. */
export const EMAIL_NOT_CONFIRMED_MESSAGE = 'Confirm your email first: we sent you a link.';
export const CONFIRM_INVALID_MESSAGE =
  'This confirmation link is invalid, used or expired. Log in to have a new one sent to you.';
/** The one answer to "send the link again", whatever the email (no enumeration). */
export const CONFIRM_RESENT_MESSAGE =
  'If this account still needs confirming, we have sent a new link to its email. It works for 24 hours.';

const linkToken = (what: string) =>
  z
    .string()
    .trim()
    .min(20, `The ${what} link is incomplete.`)
    .max(100, `The ${what} link is not valid.`)
    .regex(/^[A-Za-z0-9_-]+$/, `The ${what} link is not valid.`);

export const confirmEmailRequestSchema = z.strictObject({ token: linkToken('confirmation') });
export type ConfirmEmailRequest = z.infer<typeof confirmEmailRequestSchema>;
export const resendConfirmationRequestSchema = z.strictObject({ email });

export const forgotPasswordQuerySchema = z.strictObject({ email });

/** The one answer to a reset request, whether or not the email has an account here. */
export const FORGOT_MESSAGE =
  'If an account exists for this email, we have sent a link to choose a new password. It works for one hour.';

export const resetPasswordRequestSchema = z.strictObject({
  token: linkToken('reset'),
  password: newPassword,
});
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

export const RESET_INVALID_MESSAGE = 'This reset link is invalid, used or expired. Please ask for a new one.';
export const RESET_DONE_MESSAGE = 'Your password has been changed. Please log in with your new password.';

/** My Profile. Changing the email needs the current password (a borrowed session cannot take the account). */
export const profileUpdateSchema = z.strictObject({
  firstName: name('first name'),
  lastName: name('last name'),
  email,
  phone: phone.nullable().or(z.literal('').transform(() => null)),
  currentPassword: z.string().max(200, 'The password is too long.').optional(),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const passwordChangeSchema = z.strictObject({
  currentPassword: z.string().min(1, 'Please enter your current password.').max(200, 'The password is too long.'),
  newPassword: newPassword,
});
export type PasswordChange = z.infer<typeof passwordChangeSchema>;

export const PROFILE_SAVED_MESSAGE = 'Your profile has been saved.';
export const PASSWORD_CHANGED_MESSAGE = 'Your password has been changed. Other devices have been logged out.';
