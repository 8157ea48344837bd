import type { DraftActionResult, PageApi } from '@app/contracts';

/** The intents of the draft controls (components/manage-store/draft-bar.tsx, version-history.tsx). */
export const DRAFT_INTENTS = ['draft-publish', 'draft-discard', 'draft-restore'] as const;

/**
 * Runs a draft control's intent for an editor page's action (decision 032): the page's own action
 * calls this first, so Publish, Discard and Restore post to the page they are on and answer there
 * (a toast with JavaScript, the message on the page without). Null when the form was not one of them.
 */
export async function draftIntent(
  api: PageApi,
  form: FormData,
  target: { kind: string; key: string },
): Promise<DraftActionResult | null> {
  switch (String(form.get('intent') ?? '')) {
    case 'draft-publish':
      return api.publishDraft(target.kind, target.key, String(form.get('seen') ?? '') || undefined);
    case 'draft-discard':
      return api.discardDraft(target.kind, target.key);
    case 'draft-restore': {
      const version = Number(form.get('version'));
      if (!Number.isInteger(version) || version < 1) {
        return { ok: false, status: 400, message: 'Choose a version to restore.', fieldErrors: {} };
      }
      return api.restoreDraftVersion(target.kind, target.key, version);
    }
    default:
      return null;
  }
}
