import { z } from 'zod';

/**
 * Postal addresses of a shopper (POST and PUT /parties/contect/postaladdress, DELETE
 * /parties/contect/mechs). Country and region ids are those of GET /public/ecommerce/countries;
 * that the region belongs to the country, and the postal code's form, are checked by the service.
 */
const text = (label: string, max: number) =>
  z.string().trim().min(1, `Please enter the ${label}.`).max(max, `The ${label} is longer than ${max} characters.`);

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `The ${label} is longer than ${max} characters.`)
    .nullish()
    .transform((v) => v || null);

export const addressInputSchema = z.strictObject({
  toName: text('name', 100),
  address1: text('street address', 200),
  address2: optionalText('second address line', 200),
  city: text('city', 100),
  postalCode: text('postal code', 20),
  countryGeoId: z.string().trim().min(1, 'Please choose a country.').max(10),
  stateProvinceGeoId: optionalText('state or region', 20),
  phone: z
    .string()
    .trim()
    .max(20, 'The phone number is too long.')
    .regex(/^\+?[0-9 ()-]{7,20}$/, 'Please enter a phone number of digits, spaces, +, - or brackets.')
    .nullish()
    .or(z.literal('').transform(() => null))
    .transform((v) => v || null),
  isDefaultShipping: z.boolean().optional(),
  isDefaultBilling: z.boolean().optional(),
});
export type AddressInput = z.infer<typeof addressInputSchema>;

export const addressUpdateSchema = addressInputSchema.extend({
  contactMechId: z.string().trim().min(1, 'contactMechId is required').max(64),
});

export const contactMechQuerySchema = z.strictObject({
  contactMechId: z.string().trim().min(1, 'contactMechId is required').max(64),
});

export const addressSchema = z.object({
  contactMechId: z.string(),
  toName: z.string(),
  address1: z.string(),
  address2: z.string().nullable(),
  city: z.string(),
  postalCode: z.string(),
  countryGeoId: z.string(),
  stateProvinceGeoId: z.string().nullable(),
  phone: z.string().nullable(),
  isDefaultShipping: z.boolean(),
  isDefaultBilling: z.boolean(),
});
export type Address = z.infer<typeof addressSchema>;

/** A shopper keeps at most this many addresses. */
export const MAX_ADDRESSES = 20;
