import type { BannerField, BannerView, MediaItem } from '@app/contracts';
import { Link, useNavigation } from 'react-router';
import { PostForm } from '../ui/post-form';
import { Card, primaryAction, secondaryAction } from './dashboard-layout';
import { MediaField } from './media-field';

const input =
  'h-9 w-full rounded-lg border px-3 text-sm focus:outline-none focus:ring-2 focus:ring-neutral-900/20 aria-[invalid=true]:border-red-600';

function TextField({
  name,
  label,
  value,
  error,
  hint,
  type = 'text',
  required = false,
  multiline = false,
  maxLength,
}: {
  name: BannerField;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  type?: string;
  required?: boolean;
  multiline?: boolean;
  maxLength?: number;
}) {
  const id = `banner-${name}`;
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name,
    defaultValue: value,
    required,
    maxLength,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
  };
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-neutral-800">
        {label}
        {!required && <span className="ml-1 font-normal text-neutral-500">(optional)</span>}
      </label>
      {multiline ? (
        <textarea {...common} rows={2} className={`${input} h-auto border-neutral-300 py-2`} />
      ) : (
        <input {...common} type={type} className={`${input} border-neutral-300`} />
      )}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-neutral-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700" data-testid={`error-${name}`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The form's date fields show the UTC day; the end date is the last day shown. */
function day(iso: string | null | undefined, endExclusive = false): string {
  if (!iso) return '';
  return new Date(Date.parse(iso) - (endExclusive ? 86_400_000 : 0)).toISOString().slice(0, 10);
}

/**
 * Adds or edits one banner of the draft. A plain multipart form: without JavaScript the picture is
 * posted with it; with JavaScript the media field uploads it first and posts only its id.
 */
export function BannerForm({
  banner,
  library,
  values,
  errors,
  message,
  cancelTo,
  action,
}: {
  banner: BannerView | null;
  library: MediaItem[];
  /** What the owner typed, when the last save was refused: kept as typed. */
  values: Record<string, string> | null;
  errors: Partial<Record<BannerField, string>>;
  message: string | null;
  cancelTo: string;
  /** Where the form posts: the page without ?edit, so a successful save leaves an address without it. */
  action: string;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const v = (f: BannerField, fallback: string | null | undefined) => values?.[f] ?? fallback ?? '';
  const title = banner ? 'Edit banner' : 'Add banner';
  return (
    <div id="banner-form" className="scroll-mt-4">
      <Card title={title}>
        <PostForm action={action} encType="multipart/form-data" className="space-y-4" aria-label={title}>
          <input type="hidden" name="intent" value="save" />
          {banner && <input type="hidden" name="bannerId" value={banner.bannerId} />}
          {message && (
            <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
              {message}
            </p>
          )}
          <MediaField
            name="mediaId"
            label="Picture"
            current={banner ? { mediaId: banner.mediaId, url: banner.imageUrl } : null}
            library={library}
            error={errors.mediaId}
            hint="Wide pictures work best (at least 1600 × 600 px); it is cropped to fit on phones."
          />
          <TextField
            name="altText"
            label="Alt text"
            required
            maxLength={250}
            value={v('altText', banner?.altText)}
            error={errors.altText}
            hint="Describes the picture for people who cannot see it, e.g. “Brass desk lamp on an oak table”."
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              name="title"
              label="Title"
              maxLength={120}
              value={v('title', banner?.title)}
              error={errors.title}
            />
            <TextField
              name="ctaLabel"
              label="Button label"
              maxLength={40}
              value={v('ctaLabel', banner?.ctaLabel)}
              error={errors.ctaLabel}
              hint="Shown on the link button; “Shop now” if empty."
            />
          </div>
          <TextField
            name="text"
            label="Text"
            multiline
            maxLength={300}
            value={v('text', banner?.text)}
            error={errors.text}
          />
          <TextField
            name="linkUrl"
            label="Link"
            value={v('linkUrl', banner?.linkUrl)}
            error={errors.linkUrl}
            hint="A page of your store such as /categories/LAMPS, or an https:// address."
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              name="startsAt"
              label="Start date"
              type="date"
              value={values?.startsAt ?? day(banner?.startsAt)}
              error={errors.startsAt}
              hint="Shown from this day (UTC); empty: from publishing."
            />
            <TextField
              name="endsAt"
              label="End date"
              type="date"
              value={values?.endsAt ?? day(banner?.endsAt, true)}
              error={errors.endsAt}
              hint="Last day shown (UTC); empty: no end."
            />
          </div>
          <div className="flex flex-wrap justify-end gap-2 border-t border-neutral-100 pt-4">
            <Link to={cancelTo} className={secondaryAction}>
              Cancel
            </Link>
            <button type="submit" className={primaryAction} disabled={saving}>
              {saving ? 'Saving…' : banner ? 'Save banner' : 'Add banner'}
            </button>
          </div>
        </PostForm>
      </Card>
    </div>
  );
}
