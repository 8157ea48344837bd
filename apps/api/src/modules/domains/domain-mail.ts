import { domainToUnicode } from 'node:url';
import type { DnsRecord } from '@app/contracts';
import { type Db, schema, type Tx } from '@app/db';
import { and, asc, eq } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import type { MailMessage } from '../mail/index';

/**
 * The mails a store's owner gets about a domain (decision 125, later): once per event, never per
 * check. Connected (a domain not connected yet now serves the store), records missing (an active
 * domain entered its grace period: what is wrong, what to create, when it stops), and disconnected.
 */
export type DomainEvent =
  | { kind: 'connected'; domain: string }
  | { kind: 'lapsed'; domain: string; problem: string; records: DnsRecord[]; disconnectsAt: Date }
  | { kind: 'disconnected'; domain: string; problem: string; records: DnsRecord[]; primaryNow: string | null };

const WHEN = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' });

const recordLines = (records: DnsRecord[]) =>
  records.map((r) => `- ${r.type} record named ${r.name} with the value ${r.value}`).join('\n');

/** The owner's address and the store's name, read in the caller's transaction. */
export async function ownerOf(tx: Tx | Db, ctx: TenantContext) {
  const u = schema.users;
  const ps = schema.productStores;
  const [owner] = await tx
    .select({ email: u.email, firstName: u.firstName })
    .from(u)
    .where(and(eq(u.tenantId, ctx.tenantId), eq(u.role, 'admin')))
    .orderBy(asc(u.userId))
    .limit(1);
  const [store] = await tx
    .select({ name: ps.storeName })
    .from(ps)
    .where(and(eq(ps.tenantId, ctx.tenantId), eq(ps.productStoreId, ctx.productStoreId)));
  return owner && store ? { ...owner, storeName: store.name } : null;
}

/** The mail for one event, to the owner, with the link to the Domains page. */
export function domainMail(
  event: DomainEvent,
  owner: { email: string; firstName: string; storeName: string },
  domainsPage: string,
): MailMessage {
  const name = domainToUnicode(event.domain) || event.domain;
  const hello = `Hello ${owner.firstName},\n\n`;
  const page = `\n\nYour domains: ${domainsPage}\n`;
  switch (event.kind) {
    case 'connected':
      return {
        to: owner.email,
        subject: `${name} is connected to ${owner.storeName}`,
        text:
          `${hello}${name} now points at ${owner.storeName} and shows your store. ` +
          `To make it the address shoppers, search engines and your emails use, make it your primary domain.${page}`,
      };
    case 'lapsed':
      return {
        to: owner.email,
        subject: `Action needed: ${name} will be disconnected from ${owner.storeName}`,
        text:
          `${hello}We checked ${name} and its DNS records are no longer right. ${event.problem}\n\n` +
          `Your store keeps answering on ${name} until ${WHEN.format(event.disconnectsAt)} UTC. ` +
          `If the records are still wrong then, ${name} is disconnected and shoppers who type it no longer reach your store.\n\n` +
          `The records ${name} needs at your DNS provider:\n\n${recordLines(event.records)}\n\n` +
          `Once they are right, press Check again on your Domains page.${page}`,
      };
    case 'disconnected':
      return {
        to: owner.email,
        subject: `${name} was disconnected from ${owner.storeName}`,
        text:
          `${hello}${name} has not pointed at your store for three days, so it no longer shows ${owner.storeName}. ${event.problem}\n\n` +
          (event.primaryNow ? `Your store's primary domain is ${event.primaryNow} again.\n\n` : '') +
          `To connect it again, create these records at your DNS provider:\n\n${recordLines(event.records)}\n\n` +
          `Then press Check again on your Domains page.${page}`,
      };
  }
}
