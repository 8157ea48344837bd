import {
  type DomainFormField,
  type DomainFormResult,
  type DomainPages,
  domainInputSchema,
  domainParamsSchema,
  primaryHostInputSchema,
} from '@app/contracts';
import { AppError } from '../../lib/errors';
import { fieldFailure, type PageModule, submitForm } from '../../lib/page-request';
import { formRefusal } from '../../lib/result';
import type { DomainsService } from './domains.service';

const FIELDS = ['domain', 'host'] as const satisfies readonly DomainFormField[];
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

/** The row's domain from a button's hidden field: a name the page did not show is a bad request. */
function rowDomain(form: Record<string, string | string[]>): string {
  const parsed = domainParamsSchema.safeParse({ domain: one(form.domain) });
  if (!parsed.success) throw AppError.badRequest('Unknown domain.');
  return parsed.data.domain;
}

/** The dashboard's Domains page (decision 121); the service checks the settings permission. */
export function domainsPages(deps: { domains: DomainsService }): PageModule<DomainPages> {
  return (page) => ({
    domainsPage: () => deps.domains.overview(page.ctx),

    async domainAction(form): Promise<DomainFormResult> {
      const { ctx } = page;
      return submitForm(FIELDS, async (): Promise<DomainFormResult> => {
        page.assertFormFromStore();
        switch (one(form.intent)) {
          case 'add': {
            const parsed = domainInputSchema.safeParse({ domain: one(form.domain) });
            if (!parsed.success) return fieldFailure(parsed.error, FIELDS);
            const added = await deps.domains.add(ctx, parsed.data);
            if (!added.ok) return formRefusal(added, FIELDS);
            const { domain, alias } = added.value;
            const names = alias ? `${domain.displayName} and ${alias.displayName}` : domain.displayName;
            return { ok: true, message: `${names} added. Create the DNS records shown; we check them now.` };
          }
          case 'recheck': {
            const checked = await deps.domains.recheck(ctx, rowDomain(form));
            if (!checked.ok) return formRefusal(checked, FIELDS);
            return { ok: true, message: `Checking ${checked.value.displayName} again.` };
          }
          case 'remove': {
            const gone = await deps.domains.remove(ctx, rowDomain(form));
            if (!gone.ok) return formRefusal(gone, FIELDS);
            return { ok: true, message: `${gone.value.domain} removed.` };
          }
          case 'primary': {
            const parsed = primaryHostInputSchema.safeParse({ host: one(form.host) });
            if (!parsed.success) return fieldFailure(parsed.error, FIELDS);
            const set = await deps.domains.setPrimary(ctx, parsed.data.host);
            if (!set.ok) return formRefusal(set, FIELDS);
            return { ok: true, message: `${set.value} is now your primary domain.` };
          }
          default:
            throw AppError.badRequest('Unknown action.');
        }
      });
    },
  });
}
