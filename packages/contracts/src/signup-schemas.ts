import { z } from 'zod';
import { loginRequestSchema, registerRequestSchema } from './auth';
import {
  normaliseSubdomain,
  SIGNUP_STARTERS,
  SIGNUP_TEMPLATES,
  SUBDOMAIN_MAX,
  SUBDOMAIN_MESSAGES,
  type SubdomainProblem,
  subdomainProblem,
} from './signup';
import type { FormOutcome } from './storefront';

export * from './signup';

/** A subdomain as typed: normalised, then held to the rules of signup.ts. */
export const subdomainSchema = z
  .string()
  .max(200, SUBDOMAIN_MESSAGES.invalid)
  .transform(normaliseSubdomain)
  .superRefine((v, ctx) => {
    const problem = subdomainProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: SUBDOMAIN_MESSAGES[problem] });
  });

/**
 * POST /platform-api/signup (and the sign-up page's form). Strict: nothing but these fields. The
 * honeypot `website` is accepted (a bot must not learn it was spotted) and must be empty.
 */
export const signupRequestSchema = z
  .strictObject({
    storeName: z
      .string()
      .trim()
      .min(2, 'Please enter your store name.')
      .max(60, 'The store name is longer than 60 characters.')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
      .refine((v) => !/[\u0000-\u001f<>]/.test(v), 'The store name has characters a name cannot have.'),
    subdomain: subdomainSchema,
    email: loginRequestSchema.shape.email,
    password: registerRequestSchema.shape.password,
    template: z.enum(SIGNUP_TEMPLATES, 'Please choose DEFAULT or ONE.').default('DEFAULT'),
    starter: z.enum(SIGNUP_STARTERS, 'Please choose empty or demo.').default('empty'),
    website: z.string().max(200).optional(),
  })
  .refine((v) => !v.password.toLowerCase().includes(v.email.split('@')[0] ?? '\u0000'), {
    path: ['password'],
    message: 'Your password must not contain your email address.',
  });
export type SignupRequest = z.infer<typeof signupRequestSchema>;
export type SignupField = 'storeName' | 'subdomain' | 'email' | 'password' | 'template' | 'starter';
export const SIGNUP_FIELDS: readonly SignupField[] = [
  'storeName',
  'subdomain',
  'email',
  'password',
  'template',
  'starter',
];

/** The one answer to a sign-up (SIGNUP_ACCEPTED_MESSAGE), new email or not. */
export const signupAcceptedSchema = z.object({ message: z.string() });
export type SignupAccepted = z.infer<typeof signupAcceptedSchema>;

/** GET /platform-api/signup/subdomains/:subdomain: may a store take it, as the page asks while one types. */
export const subdomainQuerySchema = z.object({ subdomain: z.string().max(SUBDOMAIN_MAX * 5) });
export const subdomainAvailabilitySchema = z.object({
  subdomain: z.string(),
  /** The store's host if it took this subdomain (acme.localhost). */
  host: z.string(),
  available: z.boolean(),
  problem: z.enum(['invalid', 'reserved', 'taken'] satisfies SubdomainProblem[]).nullable(),
  message: z.string().nullable(),
});
export type SubdomainAvailability = z.infer<typeof subdomainAvailabilitySchema>;

/** POST /platform-api/signup/confirm: the token of the mail's link. */
export const signupConfirmRequestSchema = z.strictObject({ token: z.string().min(1).max(200) });

/** The store opened: where it lives and the one-time link that signs its owner in there. */
export const signupConfirmedSchema = z.object({
  tenantId: z.string(),
  host: z.string(),
  storeUrl: z.string(),
  /** One use, 5 minutes: opens /manage-store on the store's host signed in (cookies are per host). */
  signInUrl: z.string(),
});
export type SignupConfirmed = z.infer<typeof signupConfirmedSchema>;

export interface SignupPageData {
  platformName: string;
  /** What a store's host ends in (".localhost:3000"), shown after the subdomain field. */
  hostSuffix: string;
}

export type SignupFormResult = { ok: true; message: string } | FormOutcome<SignupField>;
export type SignupConfirmResult =
  | ({ ok: true } & SignupConfirmed)
  | { ok: false; status: 400 | 403 | 404 | 409 | 410 | 429; message: string };

/** The platform host's sign-up pages (modules/signup). */
export interface SignupPages {
  signupPage(): Promise<SignupPageData>;
  /** A form post of the sign-up page: mails the confirmation link; the same answer whoever the email is. */
  signup(form: Record<string, string>): Promise<SignupFormResult>;
  subdomainAvailability(subdomain: string): Promise<SubdomainAvailability>;
  /** Opens the store of a confirmation link (a form post, so a mail scanner's GET opens nothing). */
  confirmSignup(token: string): Promise<SignupConfirmResult>;
}

/** The first-run checklist on a new store's dashboard home (decision 103). */
export type FirstRunItemId = 'product' | 'look' | 'payments' | 'live';
export interface FirstRunItem {
  id: FirstRunItemId;
  title: string;
  description: string;
  /** Ticked from the store's real state, never by a click on the list. */
  done: boolean;
  /** Where the owner does it. */
  href: string;
  linkLabel: string;
}
export interface FirstRunChecklist {
  items: FirstRunItem[];
  done: number;
  /** The store's address, to look at it as a shopper. */
  storeUrl: string;
}
export type FirstRunActionResult = { ok: true; message: string } | FormOutcome<never>;

/** The checklist's page functions (modules/signup): the owner's only. */
export interface FirstRunPages {
  /** Null when there is none to show: a store sign-up did not open, one put away, or not the owner. */
  firstRunChecklist(): Promise<FirstRunChecklist | null>;
  /** `dismiss` puts the checklist away; `go-live` opens the store to visitors (access mode public). */
  firstRunAction(intent: 'dismiss' | 'go-live'): Promise<FirstRunActionResult>;
}
