import type { CmsPage } from '@app/contracts';
import { Link } from 'react-router';

export const PROMOTION_PLACEHOLDER = 'Promotion title is not set.';

/** Promotion title, links of pages flagged TOP, and the fixed 'EN, $' label. */
export function TopStrip({ promotionTitle, pages }: { promotionTitle: string | null; pages: CmsPage[] }) {
  const top = pages.filter((p) => p.pageLinks.includes('TOP'));
  return (
    <div className="bg-dark text-white" data-testid="top-strip">
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-2 text-xs md:text-[13px]">
        <p className="truncate font-medium" data-testid="promotion-title">
          {promotionTitle?.trim() || PROMOTION_PLACEHOLDER}
        </p>
        <div className="flex shrink-0 items-center gap-4">
          <nav aria-label="Store information" className="hidden items-center gap-4 sm:flex">
            {top.map((p) => (
              <Link
                key={p.id}
                to={`/page/details/${p.pageUrl}`}
                className="text-white/85 hover:text-white hover:underline"
              >
                {p.pageTitle}
              </Link>
            ))}
          </nav>
          <span className="text-white/85" data-testid="locale-label">
            EN, $
          </span>
        </div>
      </div>
    </div>
  );
}
