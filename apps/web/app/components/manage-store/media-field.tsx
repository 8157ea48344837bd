import type { MediaItem } from '@app/contracts';
import { CSRF_HEADER, MEDIA_ACCEPT, MEDIA_UPLOAD_MAX_BYTES } from '@app/contracts/client';
import { ImagePlus, Loader2 } from 'lucide-react';
import { type ChangeEvent, useId, useRef, useState } from 'react';
import { useRouteLoaderData } from 'react-router';
import type { loader as rootLoader } from '../../root';
import { buttonClass } from '../ui/button';

/** A picture chosen for a field: from the library, just uploaded, or the one the thing already has. */
export interface MediaChoice {
  /** Null for a picture that is not in the library (the demo seed's), kept as it is. */
  mediaId: string | null;
  url: string;
}

const thumb = (url: string) => (url.startsWith('/media/') || url.includes('/media/') ? `${url}?w=160` : url);

/**
 * A picture field for any dashboard form (banners, logo, pages): pick a picture of the store's
 * media library or upload one. The value posted is `name` = the chosen mediaId ('' keeps the
 * current picture).
 *
 * - Without JavaScript the library is a group of radio buttons and the file input posts the file
 *   with the form (the form must be `encType="multipart/form-data"`; its action passes the file to
 *   `api.uploadMedia`).
 * - With JavaScript a chosen file is uploaded at once to POST /api/v1/media/upload (the server
 *   checks it: type by content, size, pixels), shows "Uploading…", then appears in the library
 *   already selected; a refusal shows under the field.
 */
export function MediaField({
  name,
  fileName = 'file',
  label,
  current,
  library,
  error,
  hint,
}: {
  name: string;
  /** The file input's name, for forms posted without JavaScript. */
  fileName?: string;
  label: string;
  current: MediaChoice | null;
  library: MediaItem[];
  error?: string;
  hint?: string;
}) {
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [uploaded, setUploaded] = useState<MediaItem[]>([]);
  const [selected, setSelected] = useState<string>(current?.mediaId ?? '');
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const shownError = uploadError ?? error;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;

  const items = [...uploaded, ...library.filter((m) => !uploaded.some((u) => u.mediaId === m.mediaId))];
  const currentOutsideLibrary = current && (!current.mediaId || !items.some((m) => m.mediaId === current.mediaId));

  async function upload(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    setUploadError(null);
    if (file.size > MEDIA_UPLOAD_MAX_BYTES) {
      setUploadError(
        `The picture is larger than ${MEDIA_UPLOAD_MAX_BYTES / 1024 / 1024} MB. Please upload a smaller one.`,
      );
      e.target.value = '';
      return;
    }
    setUploading(true);
    try {
      const body = new FormData();
      body.set('file', file);
      const res = await fetch('/api/v1/media/upload', {
        method: 'POST',
        body,
        headers: { [CSRF_HEADER]: root?.csrfToken ?? '' },
        credentials: 'same-origin',
      });
      const json = await res.json().catch(() => null);
      if (!res.ok || !json?.data) {
        const message = String(json?.message ?? 'The picture could not be uploaded. Please try again.');
        setUploadError(message.replace(/^(body\.)?file: /, '').replace(/^./, (c) => c.toUpperCase()));
        return;
      }
      const item: MediaItem = { ...json.data, bytes: 0, altText: null, createdAt: new Date().toISOString() };
      setUploaded((u) => [item, ...u]);
      setSelected(item.mediaId);
    } catch {
      setUploadError('The picture could not be uploaded. Check your connection and try again.');
    } finally {
      setUploading(false);
      // Uploaded already: the form must not post the bytes a second time.
      if (fileRef.current) fileRef.current.value = '';
    }
  }

  const describedBy = [shownError ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset aria-describedby={describedBy} aria-invalid={shownError ? true : undefined}>
      <legend className="kit-label">{label}</legend>
      <div className="flex flex-wrap items-center gap-3">
        <label
          htmlFor={`${id}-file`}
          className={buttonClass(
            'secondary',
            false,
            'cursor-pointer focus-within:ring-2 focus-within:ring-neutral-900',
          )}
        >
          {uploading ? (
            <Loader2 aria-hidden className="size-4 animate-spin" />
          ) : (
            <ImagePlus aria-hidden className="size-4" />
          )}
          {uploading ? 'Uploading…' : 'Upload a picture'}
          <input
            ref={fileRef}
            id={`${id}-file`}
            type="file"
            name={fileName}
            accept={MEDIA_ACCEPT}
            onChange={upload}
            disabled={uploading}
            className="sr-only"
          />
        </label>
        <span className="kit-hint mt-0">JPEG, PNG, WebP, AVIF or GIF, up to 10 MB.</span>
      </div>
      {hint && !shownError && (
        <p id={hintId} className="kit-hint">
          {hint}
        </p>
      )}
      {shownError && (
        <p id={errorId} role="alert" className="kit-error" data-testid={`error-${name}`}>
          {shownError}
        </p>
      )}
      {(items.length > 0 || currentOutsideLibrary) && (
        <div className="mt-3">
          <p className="mb-1.5 text-xs font-medium text-neutral-600">Or choose from your library</p>
          <ul className="grid grid-cols-3 gap-2 sm:grid-cols-6">
            {currentOutsideLibrary && current && (
              <li>
                <Choice
                  name={name}
                  value=""
                  url={current.url}
                  label="Current picture"
                  checked={selected === ''}
                  onSelect={() => setSelected('')}
                />
              </li>
            )}
            {items.map((m) => (
              <li key={m.mediaId}>
                <Choice
                  name={name}
                  value={m.mediaId}
                  url={m.url}
                  label={m.altText ? `Picture: ${m.altText}` : `Picture ${m.width} × ${m.height}`}
                  checked={selected === m.mediaId}
                  onSelect={() => setSelected(m.mediaId)}
                />
              </li>
            ))}
          </ul>
        </div>
      )}
      {items.length === 0 && !currentOutsideLibrary && <input type="hidden" name={name} value="" />}
    </fieldset>
  );
}

function Choice({
  name,
  value,
  url,
  label,
  checked,
  onSelect,
}: {
  name: string;
  value: string;
  url: string;
  label: string;
  checked: boolean;
  onSelect: () => void;
}) {
  return (
    <label className="group relative block cursor-pointer">
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={onSelect}
        aria-label={label}
        className="peer sr-only"
      />
      <img
        src={thumb(url)}
        alt=""
        width={160}
        height={90}
        loading="lazy"
        className="aspect-video w-full rounded-md border border-neutral-200 bg-neutral-100 object-cover peer-checked:ring-2 peer-checked:ring-neutral-900 peer-checked:ring-offset-2 peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-blue-600"
      />
      {checked && (
        <span className="absolute top-1 right-1 rounded bg-neutral-900 px-1.5 py-0.5 text-[10px] font-semibold text-white">
          Chosen
        </span>
      )}
    </label>
  );
}
