import type { DraftStatus } from '@app/contracts';
import type { RequestContext } from '../../lib/context';
import type { DraftsService } from './drafts.service';

/** The status an editor shows above its form: unpublished changes, and the versions to restore. */
export async function draftStatus(
  drafts: DraftsService,
  ctx: RequestContext,
  kindName: string,
  key: string,
): Promise<DraftStatus> {
  const kind = drafts.kind(kindName);
  const [draft, versions] = await Promise.all([drafts.get(ctx, kind, key), drafts.versions(ctx, kind, key)]);
  return {
    kind: kind.kind,
    key,
    draft: draft
      ? { updatedAt: draft.updatedAt.toISOString(), updatedBy: draft.updatedBy, updatedByName: draft.updatedByName }
      : null,
    versions: versions.map((x) => ({ ...x, publishedAt: x.publishedAt.toISOString() })),
  };
}
