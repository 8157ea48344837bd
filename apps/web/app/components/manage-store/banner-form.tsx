import type { BannerField, BannerView, MediaItem } from '@app/contracts';
import { useNavigation } from 'react-router';
import { Banner } from '../ui/banner';
import { Card } from '../ui/card';
import { PostForm } from '../ui/post-form';
import { SaveBar } from '../ui/save-bar';
import { TextAreaField, TextField } from '../ui/text-field';
import { MediaField } from './media-field';

const optional = <span className="font-normal text-neutral-500"> (optional)</span>;

/** A banner field in the kit, with the id (`banner-<name>`) and the "(optional)" mark the form always had. */
function BannerText({
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
  const common = {
    id: `banner-${name}`,
    name,
    label: required ? (
      label
    ) : (
      <>
        {label}
        {optional}
      </>
    ),
    defaultValue: value,
    required,
    maxLength,
    error,
    hint,
  };
  return multiline ? <TextAreaField {...common} rows={2} /> : <TextField {...common} type={type} />;
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
          {/* First in the form: Enter in a box saves the banner, and Save stays in reach. */}
          <SaveBar
            busy={saving}
            saveLabel={banner ? 'Save banner' : 'Add banner'}
            discard={cancelTo}
            message={message ? 'Not saved: see the fields marked' : undefined}
          />
          {message && <Banner>{message}</Banner>}
          <MediaField
            name="mediaId"
            label="Picture"
            current={banner ? { mediaId: banner.mediaId, url: banner.imageUrl } : null}
            library={library}
            error={errors.mediaId}
            hint="Wide pictures work best (at least 1600 × 600 px); it is cropped to fit on phones."
          />
          <BannerText
            name="altText"
            label="Alt text"
            required
            maxLength={250}
            value={v('altText', banner?.altText)}
            error={errors.altText}
            hint="Describes the picture for people who cannot see it, e.g. “Brass desk lamp on an oak table”."
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <BannerText
              name="title"
              label="Title"
              maxLength={120}
              value={v('title', banner?.title)}
              error={errors.title}
            />
            <BannerText
              name="ctaLabel"
              label="Button label"
              maxLength={40}
              value={v('ctaLabel', banner?.ctaLabel)}
              error={errors.ctaLabel}
              hint="Shown on the link button; “Shop now” if empty."
            />
          </div>
          <BannerText
            name="text"
            label="Text"
            multiline
            maxLength={300}
            value={v('text', banner?.text)}
            error={errors.text}
          />
          <BannerText
            name="linkUrl"
            label="Link"
            value={v('linkUrl', banner?.linkUrl)}
            error={errors.linkUrl}
            hint="A page of your store such as /categories/LAMPS, or an https:// address."
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <BannerText
              name="startsAt"
              label="Start date"
              type="date"
              value={values?.startsAt ?? day(banner?.startsAt)}
              error={errors.startsAt}
              hint="Shown from this day (UTC); empty: from publishing."
            />
            <BannerText
              name="endsAt"
              label="End date"
              type="date"
              value={values?.endsAt ?? day(banner?.endsAt, true)}
              error={errors.endsAt}
              hint="Last day shown (UTC); empty: no end."
            />
          </div>
        </PostForm>
      </Card>
    </div>
  );
}
