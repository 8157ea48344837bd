import { z } from 'zod';

/**
 * Saved cards (/ecommerce/profile/createCreditCard and editCreditCard). The number and the
 * security code go to the payment provider to be tokenised and are never stored or echoed back.
 */
// Worded for the shopper at checkout and on their saved cards, where these messages show by the field.
const month = z
  .number({ error: 'Please enter the expiry month as a number, 1 to 12.' })
  .int('Please enter the expiry month as a number, 1 to 12.')
  .min(1, 'Please enter an expiry month from 1 to 12.')
  .max(12, 'Please enter an expiry month from 1 to 12.');
const year = z
  .number({ error: 'Please enter the expiry year with four digits, like 2030.' })
  .int('Please enter the expiry year with four digits, like 2030.')
  .min(2000, 'Please enter the expiry year with four digits, like 2030.')
  .max(2100, 'Please enter the expiry year with four digits, like 2030.');

export const cardCreateSchema = z.strictObject({
  cardNumber: z
    .string()
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/, 'Please enter the card number (12 to 19 digits).')),
  cvc: z
    .string()
    .trim()
    .regex(/^\d{3,4}$/, 'Please enter the 3 or 4 digit security code.'),
  expMonth: month,
  expYear: year,
  nameOnCard: z.string().trim().min(1, 'Please enter the name on the card.').max(100, 'The name is too long.'),
  billingContactMechId: z.string().trim().max(64).nullish(),
});
export type CardCreate = z.infer<typeof cardCreateSchema>;

/** What can change on a saved card without typing the number again: expiry, name, billing address. */
export const cardEditSchema = z.strictObject({
  paymentMethodId: z.string().trim().min(1, 'paymentMethodId is required').max(64),
  expMonth: month,
  expYear: year,
  nameOnCard: z.string().trim().min(1, 'Please enter the name on the card.').max(100, 'The name is too long.'),
  billingContactMechId: z.string().trim().max(64).nullish(),
});
export type CardEdit = z.infer<typeof cardEditSchema>;

export const paymentMethodQuerySchema = z.strictObject({
  paymentMethodId: z.string().trim().min(1, 'paymentMethodId is required').max(64),
});

export const savedCardSchema = z.object({
  paymentMethodId: z.string(),
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number(),
  expYear: z.number(),
  nameOnCard: z.string(),
  billingContactMechId: z.string().nullable(),
  expired: z.boolean(),
});
export type SavedCard = z.infer<typeof savedCardSchema>;
