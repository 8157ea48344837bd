import { z } from 'zod';

/**
 * A store's parcel carrier accounts whose live rates checkout lists beside the table rates
 * (decision 117). The client secret is write-only: sent when connecting, sealed, never answered.
 */
export const CARRIER_IDS = ['ups', 'fedex'] as const;
export const carrierSchema = z.enum(CARRIER_IDS);
export type Carrier = z.infer<typeof carrierSchema>;

export const CARRIER_NAMES: Record<Carrier, string> = { ups: 'UPS', fedex: 'FedEx' };

/** The services an owner may offer, by the carrier's own codes (UPS Rating's Service.Code, FedEx's serviceType). */
export const CARRIER_SERVICES: Record<Carrier, { code: string; name: string }[]> = {
  ups: [
    { code: '03', name: 'UPS Ground' },
    { code: '12', name: 'UPS 3 Day Select' },
    { code: '02', name: 'UPS 2nd Day Air' },
    { code: '13', name: 'UPS Next Day Air Saver' },
    { code: '01', name: 'UPS Next Day Air' },
    { code: '11', name: 'UPS Standard' },
    { code: '65', name: 'UPS Worldwide Saver' },
    { code: '08', name: 'UPS Worldwide Expedited' },
  ],
  fedex: [
    { code: 'FEDEX_GROUND', name: 'FedEx Ground' },
    { code: 'GROUND_HOME_DELIVERY', name: 'FedEx Home Delivery' },
    { code: 'FEDEX_EXPRESS_SAVER', name: 'FedEx Express Saver' },
    { code: 'FEDEX_2_DAY', name: 'FedEx 2Day' },
    { code: 'STANDARD_OVERNIGHT', name: 'FedEx Standard Overnight' },
    { code: 'PRIORITY_OVERNIGHT', name: 'FedEx Priority Overnight' },
    { code: 'INTERNATIONAL_ECONOMY', name: 'FedEx International Economy' },
    { code: 'INTERNATIONAL_PRIORITY', name: 'FedEx International Priority' },
  ],
};

export const carrierServiceName = (carrier: Carrier, code: string) =>
  CARRIER_SERVICES[carrier].find((s) => s.code === code)?.name ?? `${CARRIER_NAMES[carrier]} ${code}`;

export const markupKindSchema = z.enum(['none', 'percent', 'fixed']);

/** A connected account as the owner sees it: never the secret, the account number by its last four only. */
export const carrierAccountSchema = z.object({
  carrier: carrierSchema,
  name: z.string(),
  connected: z.boolean(),
  clientId: z.string().nullable(),
  /** The account number's last four characters. */
  accountEnding: z.string().nullable(),
  services: z.array(z.string()),
  /** Every service the carrier offers, to pick from. */
  available: z.array(z.object({ code: z.string(), name: z.string() })),
  markupKind: markupKindSchema,
  /** Whole percent for `percent`, minor units for `fixed`. */
  markupValue: z.number().int(),
  box: z.object({ lengthIn: z.number().int(), widthIn: z.number().int(), heightIn: z.number().int() }),
  connectedAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type CarrierAccount = z.infer<typeof carrierAccountSchema>;

export const carrierParamsSchema = z.strictObject({ carrier: carrierSchema });

const text = (max: number) => z.string().trim().min(1).max(max);

/** Connecting (or replacing) an account: checked with the carrier (an OAuth token) before it is saved. */
export const carrierConnectSchema = z.strictObject({
  clientId: text(200),
  clientSecret: text(500),
  accountNumber: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{6,12}$/, 'must be 6 to 12 letters or digits'),
});
export type CarrierConnect = z.infer<typeof carrierConnectSchema>;

const inches = z.number().int().min(1).max(108);

/** What the owner offers: services, markup and the box. Only the fields given change. */
export const carrierSettingsSchema = z
  .strictObject({
    services: z.array(z.string().min(1).max(40)).max(20).optional(),
    markupKind: markupKindSchema.optional(),
    markupValue: z.number().int().min(0).max(100_000).optional(),
    box: z.strictObject({ lengthIn: inches, widthIn: inches, heightIn: inches }).optional(),
  })
  .refine((v) => v.markupKind !== 'percent' || v.markupValue === undefined || v.markupValue <= 200, {
    message: 'a percent markup is at most 200',
    path: ['markupValue'],
  });
export type CarrierSettings = z.infer<typeof carrierSettingsSchema>;

export const CARRIER_FIELDS = [
  'clientId',
  'clientSecret',
  'accountNumber',
  'services',
  'markupKind',
  'markupPercent',
  'markupAmount',
  'lengthIn',
  'widthIn',
  'heightIn',
] as const;
export type CarrierField = (typeof CARRIER_FIELDS)[number];

/** What a carriers form answers: saved (with a toast), or refused with messages by field. */
export type CarrierFormResult =
  | { ok: true; message: string }
  | {
      ok: false;
      status: 400 | 401 | 403 | 404 | 409 | 422;
      message: string;
      fieldErrors: Partial<Record<CarrierField, string>>;
    };

/** The Carriers settings page; each function needs the settings permission. */
export interface CarrierPages {
  carriersPage(): Promise<{ accounts: CarrierAccount[]; currency: string }>;
  /** `connect`, `settings` (services, markup, box) or `disconnect` of one carrier; form fields as posted. */
  saveCarrier(
    carrier: string,
    intent: 'connect' | 'settings' | 'disconnect',
    fields: Record<string, string | string[]>,
  ): Promise<CarrierFormResult>;
}
