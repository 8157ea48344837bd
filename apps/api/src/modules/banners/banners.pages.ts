import type { BannerFormResult, BannersPages, BannerView } from '@app/contracts';
import { BANNER_FIELDS } from '@app/contracts';
import { requireAccess } from '../../lib/access';
import type { PageModule } from '../../lib/page-request';
import { submitForm } from '../../lib/page-request';
import { formRefusal, ok, type Result } from '../../lib/result';
import { absoluteMediaUrl } from '../../lib/urls';
import { type DraftsService, draftStatus } from '../drafts/index';
import { type BannersService, showingAt } from './banners.service';

/** A form's date field (YYYY-MM-DD, the dashboard's UTC day) as the API's time: the start of that day. */
function dayStart(value: string | undefined): string | null {
  const v = value?.trim() ?? '';
  if (!v) return null;
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00.000Z` : v;
}
/** The end date is the last day shown: the banner stops at the start of the next day. */
function dayAfter(value: string | undefined): string | null {
  const start = dayStart(value);
  if (!start || !/^\d{4}-\d{2}-\d{2}T00:00:00.000Z$/.test(start)) return start;
  const d = new Date(start);
  if (Number.isNaN(d.getTime())) return start;
  return new Date(d.getTime() + 86_400_000).toISOString();
}

/** The banners page's functions; each checks access itself and takes only this store's banners. */
export function bannersPages(deps: { banners: BannersService; drafts: DraftsService }): PageModule<BannersPages> {
  const { banners, drafts } = deps;
  return (page) => {
    const { ctx } = page;
    function change(run: () => Promise<Result<unknown>>, message: string): Promise<BannerFormResult> {
      requireAccess(ctx, 'settings');
      // Inside submitForm: a foreign or expired form is a message on the page, not an error page.
      return submitForm(BANNER_FIELDS, async () => {
        page.assertFormFromStore();
        const done = await run();
        if (!done.ok) return formRefusal(done, BANNER_FIELDS);
        return { ok: true as const, message };
      });
    }
    return {
      async bannersPage() {
        requireAccess(ctx, 'settings');
        const working = await banners.working(ctx);
        const status = await draftStatus(drafts, ctx, banners.kind.kind, working.productStoreId);
        const now = new Date();
        const views: BannerView[] = working.banners.map((b) => ({
          ...b,
          imageUrl: absoluteMediaUrl(ctx, b.imageUrl) ?? b.imageUrl,
          showing: showingAt(b, now),
        }));
        return { working, status, views };
      },
      saveBanner(bannerId, fields) {
        const input = {
          mediaId: fields.mediaId || null,
          altText: fields.altText ?? '',
          title: fields.title,
          text: fields.text,
          ctaLabel: fields.ctaLabel,
          linkUrl: fields.linkUrl,
          startsAt: dayStart(fields.startsAt),
          endsAt: dayAfter(fields.endsAt),
        };
        return bannerId
          ? change(
              async () => ok(await banners.update(ctx, bannerId, input)),
              'Banner saved as a draft. Publish to show it.',
            )
          : change(() => banners.add(ctx, input), 'Banner added as a draft. Publish to show it.');
      },
      deleteBanner: (bannerId) =>
        change(async () => ok(await banners.remove(ctx, bannerId)), 'Banner removed from the draft.'),
      moveBanner: (bannerId, by) =>
        change(
          async () => ok(await banners.move(ctx, bannerId, by)),
          by < 0 ? 'Banner moved up.' : 'Banner moved down.',
        ),
      reorderBanners: (ids) =>
        change(async () => ok(await banners.reorder(ctx, ids)), 'Banner order saved as a draft.'),
    };
  };
}
