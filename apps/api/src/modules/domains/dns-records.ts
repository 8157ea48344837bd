/**
 * The DNS records an owner creates for a store's domain (decision 121): the TXT token that proves
 * it is theirs, and the CNAME or A/AAAA record that points it here; also the words a check's reason
 * uses for the pointing record. Separate so the page, the checks and the mails name the same records.
 */
import type { DnsRecord } from '@app/contracts';
import { type DnsTargets, txtName, txtValue } from './dns-check';

/** An apex (example.com) cannot have a CNAME next to its other records: it points by A record. */
export const isApex = (domain: string) => domain.split('.').length === 2;

/** The record that points the domain here, in the words of a reason: "create …". */
export function pointTo(domain: string, targets: DnsTargets) {
  if (!isApex(domain)) return `a CNAME record to ${targets.cname}`;
  return targets.aaaa
    ? `an A record to ${targets.a} and an AAAA record to ${targets.aaaa}, and no other A or AAAA record`
    : `an A record to ${targets.a}, and no AAAA record`;
}

/**
 * The records the owner creates: the TXT token, then the CNAME (a subdomain) or the A record (an
 * apex, with its AAAA record when the platform has an IPv6 address). A `www.` host added with its apex
 * needs only its CNAME: the apex's TXT record proves it (decision 125).
 */
export function recordsFor(
  domain: string,
  token: string,
  targets: DnsTargets,
  aliasOf: string | null = null,
): DnsRecord[] {
  if (aliasOf)
    return [
      {
        type: 'CNAME',
        name: domain,
        value: targets.cname,
        purpose: `Sends visitors who type ${domain} to your store. The TXT record of ${aliasOf} proves it is yours.`,
      },
    ];
  return [
    {
      type: 'TXT',
      name: txtName(domain),
      value: txtValue(token),
      purpose: 'Proves the domain is yours. Keep it: it is checked again.',
    },
    ...(isApex(domain)
      ? [
          { type: 'A' as const, name: domain, value: targets.a, purpose: 'Points the domain at your store.' },
          ...(targets.aaaa
            ? [
                {
                  type: 'AAAA' as const,
                  name: domain,
                  value: targets.aaaa,
                  purpose: 'Points the domain at your store for visitors on IPv6.',
                },
              ]
            : []),
        ]
      : [{ type: 'CNAME' as const, name: domain, value: targets.cname, purpose: 'Points the domain at your store.' }]),
  ];
}
