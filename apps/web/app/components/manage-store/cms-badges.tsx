import type { CmsPageStatus, PageLinkFlag } from '@app/contracts';
import { Badge } from '../ui/badge';

/** The flags in the clients' order; a copy, so this browser code does not pull zod in with the contracts. */
export const PAGE_LINK_FLAGS = ['TOP', 'MENU', 'BOTTOM', 'FOOTER'] as const satisfies readonly PageLinkFlag[];

/** Where each link flag puts a page on the storefront. */
export const PAGE_LINK_PLACES: Record<PageLinkFlag, string> = {
  TOP: 'Top strip, above the header',
  MENU: 'The More tab of the category bar',
  BOTTOM: 'The Learn More column of the footer',
  FOOTER: 'The footer’s bottom row',
};

/** A page's state in the owner's words, coloured as Polaris colours a status. */
export function CmsStatusBadge({ status }: { status: CmsPageStatus }) {
  return <Badge tone={status === 'Published' ? 'success' : status === 'Draft' ? 'neutral' : 'warning'}>{status}</Badge>;
}

export function CmsFlags({ flags }: { flags: readonly PageLinkFlag[] }) {
  if (flags.length === 0) return <span className="text-xs text-neutral-500">Not linked</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {flags.map((f) => (
        <span
          key={f}
          title={PAGE_LINK_PLACES[f]}
          className="rounded border border-neutral-300 px-1.5 py-px text-[11px] font-semibold tracking-wide text-neutral-700"
        >
          {f}
        </span>
      ))}
    </span>
  );
}
