import { Resolver } from 'node:dns/promises';

/** The TXT record's name and value for a domain: a name of its own, so it never clashes with SPF. */
export const TXT_PREFIX = '_storefront-verify';
export const txtName = (domain: string) => `${TXT_PREFIX}.${domain}`;
export const txtValue = (token: string) => `storefront-verify=${token}`;

/** What the DNS says about a domain: whether the token is there, and whether it points here. */
export type DnsFinding =
  | { ok: true; tokenFound: boolean; pointsHere: boolean; seen: string }
  | { ok: false; error: string };

/**
 * Where a store's domain must point: a subdomain by CNAME, an apex by A record (decision 121), and by
 * AAAA record too when the platform has an IPv6 address (`DOMAIN_AAAA_TARGET`, decision 125).
 */
export interface DnsTargets {
  cname: string;
  a: string;
  aaaa?: string | undefined;
}

/** Answers that mean "no such record" rather than "DNS did not answer". */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NOTFOUND', 'NODATA']);

async function orNone<T>(lookup: Promise<T[]>): Promise<T[]> {
  try {
    return await lookup;
  } catch (err) {
    if (NO_RECORD.has((err as NodeJS.ErrnoException).code ?? '')) return [];
    throw err;
  }
}

/**
 * Asks DNS through `server` (host:port; the system's resolvers when unset, DNS_RESOLVER). A fresh
 * Resolver per check: Node caches nothing itself, so a record the owner just fixed is seen at the
 * next check (only the resolver's own cache, for the record's TTL, can hide it).
 */
export function createDnsChecker(server?: string) {
  /** `proofOf`: whose TXT record holds the token (a `www.` alias is proven by its apex's, decision 125). */
  return async function check(
    domain: string,
    token: string,
    targets: DnsTargets,
    proofOf: string = domain,
  ): Promise<DnsFinding> {
    const resolver = new Resolver({ timeout: 3_000, tries: 2 });
    if (server) resolver.setServers([server]);
    try {
      const [txt, cname, a, aaaa] = await Promise.all([
        orNone(resolver.resolveTxt(txtName(proofOf))),
        orNone(resolver.resolveCname(domain)),
        orNone(resolver.resolve4(domain)),
        orNone(resolver.resolve6(domain)),
      ]);
      // A TXT record may come in several strings of 255 characters: joined, they are the value.
      const tokenFound = txt.some((parts) => parts.join('') === txtValue(token));
      const cnames = cname.map((c) => c.toLowerCase().replace(/\.$/, ''));
      // An AAAA record left at an old host sends every IPv6 visitor there: the domain points here
      // only when each AAAA record it has is the platform's (or, through a CNAME, the target's own).
      const aaaaHere = aaaa.every((ip) => ip === targets.aaaa);
      const pointsHere = cnames.includes(targets.cname) || (a.includes(targets.a) && aaaaHere);
      const seen =
        cnames.length > 0
          ? `CNAME ${cnames.join(', ')}`
          : a.length + aaaa.length > 0
            ? [a.length ? `A ${a.join(', ')}` : '', aaaa.length ? `AAAA ${aaaa.join(', ')}` : '']
                .filter(Boolean)
                .join('; ')
            : 'no record';
      return { ok: true, tokenFound, pointsHere, seen };
    } catch (err) {
      return { ok: false, error: (err as NodeJS.ErrnoException).code ?? 'an error' };
    }
  };
}

export type DnsChecker = ReturnType<typeof createDnsChecker>;
