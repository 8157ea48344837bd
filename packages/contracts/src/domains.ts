import { z } from 'zod';
import type { FormOutcome } from './storefront';

/** pending, verified (the TXT token is there, the domain does not point here yet), active, failed. */
export const DOMAIN_STATES = ['pending', 'verified', 'active', 'failed'] as const;
export type DomainState = (typeof DOMAIN_STATES)[number];

/**
 * An internationalised name (bücher.de) in its ASCII form (xn--bcher-kva.de), what DNS, certificates
 * and the Host header carry: the WHATWG URL parser's domain-to-ASCII (UTS #46), which node:url's
 * `domainToASCII` is too, and which runs in the browser as well as on the server. Only a name with a
 * letter outside ASCII is converted, and only when it is nothing but a name (no scheme, path or port:
 * the parser would drop those silently, and the pattern below must refuse them). A name the parser
 * refuses stays as typed, and the pattern refuses it.
 */
export function domainToAscii(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: every character outside printable ASCII.
  if (!/[^\x00-\x7f]/.test(name) || /[\s/:?#@[\]\\]/.test(name)) return name;
  try {
    return new URL(`http://${name}/`).hostname;
  } catch {
    return name;
  }
}

/**
 * A domain name as the owner types it: lower-cased, without scheme, path, port or trailing dot;
 * at least two labels of letters, digits and hyphens, 253 characters at most. An internationalised
 * name may be typed in letters (bücher.de) or in its punycode form (xn--bcher-kva.de): both are kept
 * in the ASCII form, so they are one domain.
 */
// Messages without the field's name: the API's answer puts the path before them (`body.domain: …`)
// and the form shows them beside the Domain box.
const ENTER_A_DOMAIN = 'enter a domain name, such as shop.example.com';

export const domainNameSchema = z
  .string({ error: ENTER_A_DOMAIN })
  .trim()
  .toLowerCase()
  .transform((v) => domainToAscii(v.replace(/\.$/, '')))
  .pipe(
    z
      .string()
      .min(1, ENTER_A_DOMAIN)
      .max(253, 'at most 253 characters')
      .regex(
        /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/,
        'enter a domain name such as shop.example.com, without https:// or a path',
      ),
  );

/** POST /api/v1/domains. */
export const domainInputSchema = z.strictObject({ domain: domainNameSchema });
export type DomainInput = z.infer<typeof domainInputSchema>;

export const domainParamsSchema = z.strictObject({ domain: domainNameSchema });

/** A DNS record the owner creates at their DNS provider. */
export const dnsRecordSchema = z.object({
  type: z.enum(['TXT', 'CNAME', 'A', 'AAAA']),
  /** The full record name (`_storefront-verify.shop.example.com`). */
  name: z.string(),
  value: z.string(),
  /** Why the record is needed, in a sentence. */
  purpose: z.string(),
});
export type DnsRecord = z.infer<typeof dnsRecordSchema>;

export const storeDomainSchema = z.object({
  /** The ASCII form (punycode for an internationalised name): what DNS and the Host header carry. */
  domain: z.string(),
  /** The name as people read it (bücher.de); the same as `domain` for an ASCII name. */
  displayName: z.string(),
  state: z.enum(DOMAIN_STATES),
  /** Why the last check did not make it active ('' when it is active or was never checked). */
  reason: z.string(),
  isPrimary: z.boolean(),
  /** The records to create: the TXT token, then the CNAME (a subdomain) or the A record (an apex). */
  records: z.array(dnsRecordSchema),
  checkedAt: z.string().nullable(),
  createdAt: z.string(),
  /**
   * An active domain whose records a later check no longer found: since when, and when it stops
   * serving the store unless they are fixed (the reason says what to fix). Null while they are right.
   */
  lapsedAt: z.string().nullable(),
  disconnectsAt: z.string().nullable(),
  /** For a `www.` host added with its apex: the apex (it shares the apex's TXT proof). */
  aliasOf: z.string().nullable(),
  /**
   * When a domain not connected yet is checked again by itself (every 10 minutes for an hour, then
   * hourly, for 72 hours); null when no such check is due: connected, or the 72 hours are over.
   */
  nextCheckAt: z.string().nullable(),
});
export type StoreDomain = z.infer<typeof storeDomainSchema>;

/** GET /api/v1/domains: the store's domains, its hosts and its primary (canonical) host. */
export const domainsOverviewSchema = z.object({
  domains: z.array(storeDomainSchema),
  /** Every host that serves the store: the platform's subdomain and its active domains. */
  hosts: z.array(z.string()),
  primaryHost: z.string(),
});
export type DomainsOverview = z.infer<typeof domainsOverviewSchema>;

/** PUT /api/v1/domains/primary: one of the store's hosts. */
export const primaryHostInputSchema = z.strictObject({ host: domainNameSchema });

/** GET /internal/tls/ask?domain=: Caddy's on-demand TLS permission question. */
export const tlsAskQuerySchema = z.object({ domain: z.string().max(253) });

export type DomainFormField = 'domain' | 'host';
export type DomainFormResult = { ok: true; message: string } | FormOutcome<DomainFormField>;

/** The dashboard's Domains page (decision 121). */
export interface DomainPages {
  domainsPage(): Promise<DomainsOverview>;
  /** One form per intent: add, recheck, remove, primary. */
  domainAction(form: Record<string, string | string[]>): Promise<DomainFormResult>;
}
