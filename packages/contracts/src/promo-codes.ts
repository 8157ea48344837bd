import { z } from 'zod';
import { decimalAmount, formatMoney } from './money';
import { MAX_PRICE_MINOR, parseDecimalMoney } from './product-admin';
import type { FormOutcome } from './storefront';
import { isRealDay, textInt } from './strict-input';

/**
 * Promo codes as the store writes them. The cart and checkout (modules/cart
 * promo.ts evaluatePromo, checkout's reserve) apply them; these are the columns they read, with the
 * limits the database checks too (promo_codes_value_ck, promo_codes_dates_ck). Money is integer
 * minor units; the dashboard's form takes decimals in the store's currency (parseDecimalMoney).
 */

/** Letters, digits, dash and underscore, 3 to 32; stored upper-cased (shoppers may type any case). */
export const PROMO_CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;
export const PROMO_KINDS = ['percent', 'amount'] as const;
export type PromoKind = (typeof PROMO_KINDS)[number];
/** A usage limit past this is a typo, not a campaign. */
export const MAX_PROMO_LIMIT = 1_000_000;
export const PROMO_DESCRIPTION_MAX = 200;
export const PROMO_CODES_PAGE_SIZE = 50;
/** How many of a code's orders its page lists (newest first); the count says how many in all. */
export const PROMO_USAGE_LIST_SIZE = 50;

/** What a code is now, in the order the cart checks it: inactive, not yet, ended, used up. */
export const PROMO_STATUSES = ['active', 'scheduled', 'expired', 'used_up', 'inactive'] as const;
export type PromoStatus = (typeof PROMO_STATUSES)[number];
export const PROMO_STATUS_LABELS: Record<PromoStatus, string> = {
  active: 'Active',
  scheduled: 'Scheduled',
  expired: 'Expired',
  used_up: 'Used up',
  inactive: 'Inactive',
};

type StatusInput = {
  active: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
  usageLimit: number | null;
  timesUsed: number;
};

/** The status the dashboard shows; the same order of checks as the cart's evaluatePromo. */
export function promoStatusOf(code: StatusInput, now: Date): PromoStatus {
  if (!code.active) return 'inactive';
  if (code.startsAt && now < code.startsAt) return 'scheduled';
  if (code.endsAt && now >= code.endsAt) return 'expired';
  if (code.usageLimit !== null && code.timesUsed >= code.usageLimit) return 'used_up';
  return 'active';
}

/** "20% off", "$10.00 off orders over $50.00": what a code gives, in one line. */
export function promoDiscountSummary(
  code: { kind: PromoKind; value: number; minSubtotal: number },
  currency: string,
): string {
  const off = code.kind === 'percent' ? `${code.value}% off` : `${formatMoney(code.value, currency)} off`;
  return code.minSubtotal > 0 ? `${off} orders over ${formatMoney(code.minSubtotal, currency)}` : off;
}

export const promoCodeSchema = z
  .string({ error: 'code must be text' })
  .trim()
  .regex(PROMO_CODE_PATTERN, 'code must be 3 to 32 letters, digits, dashes or underscores')
  .transform((s) => s.toUpperCase());

const when = (name: string) =>
  z.iso.datetime({ offset: true, error: `${name} must be a date and time like 2026-05-01T00:00:00Z` }).nullable();
const limit = (name: string) =>
  z
    .number({ error: `${name} must be a whole number or null` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1 (null: no limit)`)
    .max(MAX_PROMO_LIMIT, `${name} must be at most ${MAX_PROMO_LIMIT}`)
    .nullable();

const promoFieldsObject = z.strictObject({
  kind: z.enum(PROMO_KINDS, { error: 'kind must be percent or amount' }),
  /** percent: 1 to 100; amount: minor units off, more than 0. */
  value: z.number({ error: 'value must be a whole number' }).int('value must be a whole number'),
  description: z
    .string({ error: 'description must be text' })
    .trim()
    .max(PROMO_DESCRIPTION_MAX, `description is longer than ${PROMO_DESCRIPTION_MAX} characters`)
    .default(''),
  /** Minor units the subtotal must reach; 0: any order. */
  minSubtotal: z
    .number({ error: 'minSubtotal must be a whole number of minor units (cents)' })
    .int('minSubtotal must be a whole number of minor units (cents)')
    .min(0, 'minSubtotal cannot be negative')
    .max(MAX_PRICE_MINOR, 'minSubtotal is more than a price can be')
    .default(0),
  startsAt: when('startsAt').default(null),
  endsAt: when('endsAt').default(null),
  usageLimit: limit('usageLimit').default(null),
  perCustomerLimit: limit('perCustomerLimit').default(null),
  active: z.boolean({ error: 'active must be true or false' }).default(true),
});

/** The rules across fields: the value fits the kind, and a code starts before it ends. */
function promoRules(v: z.infer<typeof promoFieldsObject>, ctx: z.RefinementCtx) {
  if (v.kind === 'percent' && (v.value < 1 || v.value > 100)) {
    ctx.addIssue({ code: 'custom', path: ['value'], message: 'value must be a percentage from 1 to 100' });
  }
  if (v.kind === 'amount' && (v.value < 1 || v.value > MAX_PRICE_MINOR)) {
    ctx.addIssue({ code: 'custom', path: ['value'], message: 'value must be an amount of minor units above 0' });
  }
  if (v.startsAt && v.endsAt && new Date(v.startsAt) >= new Date(v.endsAt)) {
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'endsAt must be after startsAt' });
  }
}

/** A code's rules (everything but the code itself, which never changes: orders name it). */
export const promoCodeFieldsSchema = promoFieldsObject.superRefine(promoRules);
export type PromoCodeFields = z.infer<typeof promoCodeFieldsSchema>;
/** A new code: its rules and the code. */
export const promoCodeCreateSchema = promoFieldsObject.extend({ code: promoCodeSchema }).superRefine(promoRules);
export type PromoCodeCreate = z.infer<typeof promoCodeCreateSchema>;

export const promoCodeParamsSchema = z.object({ code: z.string().min(1).max(64) });

export const promoCodeListQuerySchema = z.object({
  status: z.enum(PROMO_STATUSES, { error: `status must be one of ${PROMO_STATUSES.join(', ')}` }).optional(),
  cursor: z.string().min(1).max(300).optional(),
  limit: textInt('limit', { min: 1, max: 100 }).optional(),
});
export type PromoCodeListQuery = z.infer<typeof promoCodeListQuerySchema>;

export const promoCodeViewSchema = z.object({
  code: z.string(),
  kind: z.enum(PROMO_KINDS),
  value: z.number().int(),
  description: z.string(),
  minSubtotal: z.number().int(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  usageLimit: z.number().int().nullable(),
  perCustomerLimit: z.number().int().nullable(),
  timesUsed: z.number().int(),
  active: z.boolean(),
  status: z.enum(PROMO_STATUSES),
  /** "20% off", "$10.00 off orders over $50.00". */
  summary: z.string(),
  currency: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PromoCodeView = z.infer<typeof promoCodeViewSchema>;

export const promoCodeListSchema = z.object({
  items: z.array(promoCodeViewSchema),
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: z.string().nullable(),
});
export type PromoCodeList = z.infer<typeof promoCodeListSchema>;

/** One order that used a code, with what the code took off it. */
export const promoRedemptionSchema = z.object({
  orderId: z.string(),
  /** The order's dashboard page (orderHref). */
  orderHref: z.string(),
  usedAt: z.string(),
  email: z.string(),
  orderStatus: z.string(),
  discount: z.number().int(),
  grandTotal: z.number().int(),
  currency: z.string(),
});
export type PromoRedemption = z.infer<typeof promoRedemptionSchema>;

export const promoCodeDetailSchema = z.object({
  code: promoCodeViewSchema,
  /** Newest first, at most PROMO_USAGE_LIST_SIZE; code.timesUsed says how many in all. */
  redemptions: z.array(promoRedemptionSchema),
});
export type PromoCodeDetail = z.infer<typeof promoCodeDetailSchema>;

// The dashboard's form: strings as a browser posts them without JavaScript.

export const PROMO_CODE_FIELDS = [
  'code',
  'kind',
  'value',
  'description',
  'minSubtotal',
  'startsAt',
  'endsAt',
  'usageLimit',
  'perCustomerLimit',
  'active',
] as const;
export type PromoCodeField = (typeof PROMO_CODE_FIELDS)[number];
export type PromoCodeFormValues = Partial<Record<PromoCodeField, string>>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A form's day (YYYY-MM-DD, the dashboard's UTC day) as the start of that day. */
function dayStart(v: string): string | undefined {
  // new Date() would read 2026-02-30 as 2 March: the day must exist as typed.
  if (!DAY.test(v) || !isRealDay(v)) return undefined;
  return new Date(`${v}T00:00:00.000Z`).toISOString();
}

/** "12" -> 12, "" -> null, anything else -> undefined (an error). */
function wholeOrEmpty(v: string): number | null | undefined {
  if (!v) return null;
  return /^\d{1,9}$/.test(v) ? Number(v) : undefined;
}

const sentence = (m: string) => m.charAt(0).toUpperCase() + m.slice(1);

/** The messages the form shows next to its fields, in the owner's words rather than the API's names. */
const FORM_MESSAGES: Partial<Record<PromoCodeField, string>> = {
  code: 'Use 3 to 32 letters, digits, dashes or underscores.',
  endsAt: 'The end date must be on or after the start date.',
  usageLimit: `Enter a whole number from 1 to ${MAX_PROMO_LIMIT}, or leave it empty for no limit.`,
  perCustomerLimit: `Enter a whole number from 1 to ${MAX_PROMO_LIMIT}, or leave it empty for no limit.`,
};

/**
 * The form -> the API's payload, or the fields at fault. The value box is a percentage (1-100) or an
 * amount in the store's currency; the minimum is an amount; dates are days, the end day included
 * (the code stops at the start of the next day), as the banners' dates are.
 */
export function promoCodeFromForm(
  form: PromoCodeFormValues,
  opts: { currency: string; creating: boolean },
):
  | { ok: true; payload: PromoCodeFields & { code?: string } }
  | { ok: false; fieldErrors: Partial<Record<PromoCodeField, string>> } {
  const errors: Partial<Record<PromoCodeField, string>> = {};
  const get = (f: PromoCodeField) => (form[f] ?? '').trim();
  const kind = get('kind') === 'amount' ? 'amount' : get('kind') === 'percent' ? 'percent' : null;
  if (!kind) errors.kind = 'Choose a percentage or a fixed amount.';

  let value = Number.NaN;
  const valueText = get('value');
  if (kind === 'percent') {
    const n = wholeOrEmpty(valueText.replace(/%$/, '').trim());
    if (n === null || n === undefined || n < 1 || n > 100) errors.value = 'Enter a percentage from 1 to 100.';
    else value = n;
  } else if (kind === 'amount') {
    const m = parseDecimalMoney(valueText, opts.currency);
    if (!valueText) errors.value = 'Enter the amount off, like 10.00.';
    else if (!m.ok) errors.value = sentence(m.message);
    else if (m.minor < 1) errors.value = 'The amount off must be more than 0.';
    else value = m.minor;
  }

  let minSubtotal = 0;
  const minText = get('minSubtotal');
  if (minText) {
    const m = parseDecimalMoney(minText, opts.currency);
    if (!m.ok) errors.minSubtotal = sentence(m.message);
    else minSubtotal = m.minor;
  }

  const startText = get('startsAt');
  const startsAt = startText ? dayStart(startText) : null;
  if (startsAt === undefined) errors.startsAt = 'Enter a date like 2026-05-01.';
  const endText = get('endsAt');
  const endDay = endText ? dayStart(endText) : null;
  if (endDay === undefined) errors.endsAt = 'Enter a date like 2026-05-31.';
  const endsAt = endDay ? new Date(new Date(endDay).getTime() + 86_400_000).toISOString() : null;

  const usageLimit = wholeOrEmpty(get('usageLimit'));
  if (usageLimit === undefined) errors.usageLimit = FORM_MESSAGES.usageLimit;
  const perCustomerLimit = wholeOrEmpty(get('perCustomerLimit'));
  if (perCustomerLimit === undefined) errors.perCustomerLimit = FORM_MESSAGES.perCustomerLimit;

  const input = {
    kind: kind ?? 'percent',
    value: Number.isNaN(value) ? 1 : value,
    description: form.description ?? '',
    minSubtotal,
    startsAt: startsAt ?? null,
    endsAt,
    usageLimit: usageLimit ?? null,
    perCustomerLimit: perCustomerLimit ?? null,
    active: form.active === 'on' || form.active === 'true',
  };
  const parsed = opts.creating
    ? promoCodeCreateSchema.safeParse({ ...input, code: form.code ?? '' })
    : promoCodeFieldsSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as PromoCodeField;
      if (!(PROMO_CODE_FIELDS as readonly string[]).includes(field) || errors[field]) continue;
      errors[field] = FORM_MESSAGES[field] ?? sentence(issue.message);
    }
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, fieldErrors: errors };
  return { ok: true, payload: parsed.data };
}

/** A saved code as the form's values (the reverse of promoCodeFromForm). */
export function promoCodeFormValues(code: PromoCodeView): PromoCodeFormValues {
  const day = (iso: string | null, lastDay: boolean) => {
    if (!iso) return '';
    const t = new Date(iso).getTime() - (lastDay ? 1 : 0);
    return new Date(t).toISOString().slice(0, 10);
  };
  return {
    code: code.code,
    kind: code.kind,
    value: code.kind === 'percent' ? String(code.value) : decimalAmount(code.value, code.currency),
    description: code.description,
    minSubtotal: code.minSubtotal ? decimalAmount(code.minSubtotal, code.currency) : '',
    startsAt: day(code.startsAt, false),
    endsAt: day(code.endsAt, true),
    usageLimit: code.usageLimit === null ? '' : String(code.usageLimit),
    perCustomerLimit: code.perCustomerLimit === null ? '' : String(code.perCustomerLimit),
    active: code.active ? 'on' : '',
  };
}

export type PromoCodeFormResult = { ok: true; message: string; code: string } | FormOutcome<PromoCodeField>;

/** The promo codes pages; each function needs the orders permission. */
export interface PromoCodesPages {
  promoCodesPage(query: Record<string, string | undefined>): Promise<
    PromoCodeList & {
      query: PromoCodeListQuery;
      statuses: { value: PromoStatus; label: string }[];
      currency: string;
    }
  >;
  /** null: no such code in this store. */
  promoCodePage(code: string): Promise<
    | (PromoCodeDetail & {
        values: PromoCodeFormValues;
        statusLabel: string;
      })
    | null
  >;
  /** The new code form's store currency (for its hint). */
  newPromoCodePage(): Promise<{ currency: string }>;
  createPromoCode(fields: PromoCodeFormValues): Promise<PromoCodeFormResult>;
  updatePromoCode(code: string, fields: PromoCodeFormValues): Promise<PromoCodeFormResult>;
  /** Activate, deactivate or delete (refused while orders used it). */
  promoCodeAction(
    code: string,
    intent: 'activate' | 'deactivate' | 'delete',
  ): Promise<{ ok: true; message: string } | FormOutcome<never>>;
}

export const PROMO_STATUS_OPTIONS = PROMO_STATUSES.map((value) => ({ value, label: PROMO_STATUS_LABELS[value] }));
