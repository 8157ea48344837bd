import type { DetailsEditorView, SettingsSaveResult, ThemeEditorView } from '../store-settings';

/**
 * The theme and store details editors. Saves make drafts (decision 032); publishing,
 * discarding and restoring are the DraftsPages functions with kinds `theme` and `details`.
 * Each needs the settings permission (a visitor gets 401, a shopper 403).
 */
export interface StoreSettingsPages {
  themeEditor(): Promise<ThemeEditorView>;
  /** The form's values as a payload (`themeDraftSchema`); field errors are keyed by path, e.g. `themeColors.action`. */
  saveThemeDraft(payload: unknown): Promise<SettingsSaveResult>;
  detailsEditor(): Promise<DetailsEditorView>;
  /** The form's values as a payload (`detailsDraftSchema`); field errors keyed by path, e.g. `companyAddress.city`. */
  saveDetailsDraft(payload: unknown): Promise<SettingsSaveResult>;
}
