import type { DraftStatus } from '../drafts';
import type { FormOutcome } from '../storefront';

/** A draft action's outcome as a dashboard form shows it: a toast, or a message. */
export type DraftActionResult = { ok: true; message: string; status: DraftStatus } | FormOutcome<never>;

/**
 * The draft controls every look-and-content editor shares (decision 032): the status bar with
 * Publish and Discard, the version history with Restore, and the storefront preview switch.
 * Each needs the settings permission (a visitor gets 401, a shopper 403).
 */
export interface DraftsPages {
  draftStatus(kind: string, key: string): Promise<DraftStatus>;
  /** `seen`: the draft's `updatedAt` the publisher looked at; a draft saved since is refused (409). */
  publishDraft(kind: string, key: string, seen?: string): Promise<DraftActionResult>;
  discardDraft(kind: string, key: string): Promise<DraftActionResult>;
  restoreDraftVersion(kind: string, key: string, version: number): Promise<DraftActionResult>;
  /** Turns this browser's preview of drafts on or off; returns the cookie to set. */
  setPreview(on: boolean): Promise<{ cookies: string[] }>;
  /** Whether this request is the owner's preview (the storefront shows its bar). */
  previewing(): boolean;
}
