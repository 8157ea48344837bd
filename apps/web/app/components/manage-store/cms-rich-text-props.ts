/**
 * The CMS body field's props, in their own file: the field (cms-rich-text.tsx) loads the editor
 * (cms-tiptap-editor.tsx) lazily and the editor takes the same props, so neither imports the other's
 * types back.
 */
export interface CmsRichTextProps {
  name: string;
  label: string;
  defaultValue: string;
  error?: string;
  /**
   * A product description: text without block tags opens as the paragraphs the product page shows
   * (descriptionParagraphs), not as one run of words. The form posts the value unchanged until edited.
   */
  paragraphsFromText?: boolean;
  /**
   * MEDIA LIBRARY HOOK: when the media library exists (branch `media`: GET /api/v1/media and
   * components/manage-store/media-field.tsx), pass a chooser here. It resolves to the chosen image's
   * same-store /media/ path (or null when the owner cancels); the image panel then shows
   * "Choose from media library" beside the URL field. Until then images are added by URL.
   */
  chooseFromLibrary?: () => Promise<{ src: string; alt?: string } | null>;
}
