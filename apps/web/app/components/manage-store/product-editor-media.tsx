import type { ProductEditorForm, ProductEditorPageData, ProductEditorView } from '@app/contracts';
import { MEDIA_ACCEPT } from '@app/contracts/client';
import { ArrowDown, ArrowUp, GripVertical, ImagePlus } from 'lucide-react';
import { type ChangeEvent, type DragEvent, type MouseEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Checkbox } from '../ui/checkbox';
import { FieldError } from '../ui/field';
import { TextField } from '../ui/text-field';
import { type Errors, list } from './product-editor-form';

/**
 * Pictures: the saved ones in order (drag, or Move up / Move down: keyboard, and without JavaScript
 * the buttons post the form), alt text each; new ones by upload, shown before they are saved, or
 * from the library.
 */
export function ImagesCard({
  product,
  values,
  errors,
  library,
}: {
  product: ProductEditorView | null;
  values: ProductEditorForm;
  errors: Errors;
  library: ProductEditorPageData['library'];
}) {
  const byId = new Map(product?.images.map((i) => [i.mediaId, i]) ?? []);
  const libById = new Map(library.map((l) => [l.mediaId, l]));
  const ids = list(values, 'imageId').filter((id) => byId.has(id) || libById.has(id));
  const alts = list(values, 'imageAlt');
  const altOf = new Map(ids.map((id, n) => [id, alts[n] ?? '']));
  const [order, setOrder] = useState(ids);
  const [live, setLive] = useState('');
  const dragging = useRef<string | null>(null);
  const idsKey = ids.join(',');
  useEffect(() => setOrder(idsKey ? idsKey.split(',') : []), [idsKey]);
  const chosenFromLibrary = library.filter((l) => !ids.includes(l.mediaId));
  const [picked, setPicked] = useState<string[]>([]);

  function move(e: MouseEvent, id: string, by: -1 | 1) {
    // With JavaScript the move happens here (saved with the form); without, the button posts the form.
    e.preventDefault();
    const i = order.indexOf(id);
    const j = i + by;
    if (j < 0 || j >= order.length) return;
    const next = [...order];
    [next[i], next[j]] = [next[j] as string, next[i] as string];
    setOrder(next);
    setLive(`Picture moved to position ${j + 1} of ${order.length}. Save to keep the order.`);
  }
  function onDragOver(e: DragEvent, overId: string) {
    e.preventDefault();
    const from = dragging.current;
    if (!from || from === overId) return;
    setOrder((o) => {
      const next = o.filter((x) => x !== from);
      next.splice(next.indexOf(overId) + (o.indexOf(from) < o.indexOf(overId) ? 1 : 0), 0, from);
      return next;
    });
  }
  const urlOf = (id: string) => byId.get(id)?.url ?? libById.get(id)?.url ?? '';

  return (
    <Card title="Media" aside={<span className="kit-hint mt-0">The first picture is the main one.</span>}>
      <p aria-live="polite" className="sr-only">
        {live}
      </p>
      {errors.images && <FieldError id="images-error" message={errors.images} testId="error-images" />}
      {order.length > 0 && (
        <ul className="mb-4 space-y-2" aria-label="Pictures, in order">
          {order.map((id, n) => (
            <li
              key={id}
              draggable
              onDragStart={() => {
                dragging.current = id;
              }}
              onDragOver={(e) => onDragOver(e, id)}
              onDragEnd={() => {
                dragging.current = null;
              }}
              className="flex flex-wrap items-center gap-3 rounded-lg border border-neutral-200 bg-white p-2 sm:flex-nowrap"
            >
              <GripVertical aria-hidden className="size-4 shrink-0 cursor-grab text-neutral-400" />
              <img
                src={`${urlOf(id)}?w=160`}
                alt=""
                width={64}
                height={64}
                className="size-16 shrink-0 rounded-md border border-neutral-200 bg-neutral-100 object-cover"
              />
              <input type="hidden" name="imageId" value={id} />
              <TextField
                className="flex-1 basis-40"
                id={`alt-${id}`}
                name="imageAlt"
                label={`Alt text ${n === 0 ? '(main picture)' : `(picture ${n + 1})`}`}
                defaultValue={altOf.get(id) ?? ''}
                placeholder="Describe the picture for people who cannot see it"
              />
              <div className="flex items-center gap-1">
                <Button
                  type="submit"
                  slim
                  name="intent"
                  value={`move-image:${id}:-1`}
                  onClick={(e) => move(e, id, -1)}
                  disabled={n === 0}
                  aria-label={`Move picture ${n + 1} up`}
                >
                  <ArrowUp aria-hidden className="size-4" />
                </Button>
                <Button
                  type="submit"
                  slim
                  name="intent"
                  value={`move-image:${id}:1`}
                  onClick={(e) => move(e, id, 1)}
                  disabled={n === order.length - 1}
                  aria-label={`Move picture ${n + 1} down`}
                >
                  <ArrowDown aria-hidden className="size-4" />
                </Button>
                <span className="ml-1 text-xs">
                  <Checkbox id={`imageRemove-${id}`} name="imageRemove" value={id} label="Remove" />
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
      <NewPictures error={errors.newImages} />
      {chosenFromLibrary.length > 0 && (
        <details className="mt-3">
          <summary className="cursor-pointer text-sm font-medium text-neutral-800">
            Choose from your library{picked.length ? ` (${picked.length} chosen)` : ''}
          </summary>
          <ul className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-6">
            {chosenFromLibrary.map((l) => (
              <li key={l.mediaId}>
                <label className="relative block cursor-pointer">
                  <input
                    type="checkbox"
                    name="libraryAdd"
                    value={l.mediaId}
                    onChange={(e) =>
                      setPicked((p) => (e.target.checked ? [...p, l.mediaId] : p.filter((x) => x !== l.mediaId)))
                    }
                    aria-label={l.altText ? `Add picture: ${l.altText}` : 'Add this picture'}
                    className="peer absolute top-1 left-1 size-4"
                  />
                  <img
                    src={`${l.url}?w=160`}
                    alt=""
                    loading="lazy"
                    className="aspect-square w-full rounded-md border border-neutral-200 object-cover peer-checked:ring-2 peer-checked:ring-neutral-900"
                  />
                </label>
              </li>
            ))}
          </ul>
        </details>
      )}
    </Card>
  );
}

/**
 * The upload box, and the picked files shown at once (read in the browser: nothing is sent before
 * Save). Without JavaScript the browser lists the file names, as before.
 */
function NewPictures({ error }: { error: string | undefined }) {
  const [previews, setPreviews] = useState<{ name: string; url: string }[]>([]);
  const [shownError, setShownError] = useState(error);
  const onPick = (e: ChangeEvent<HTMLInputElement>) => {
    const files = [...(e.currentTarget.files ?? [])].filter((f) => f.type.startsWith('image/'));
    // Read as data: URLs, which the pages' content security policy allows for pictures (blob: it does not).
    Promise.all(
      files.map(
        (f) =>
          new Promise<{ name: string; url: string }>((resolve) => {
            const reader = new FileReader();
            reader.onload = () => resolve({ name: f.name, url: String(reader.result) });
            reader.onerror = () => resolve({ name: f.name, url: '' });
            reader.readAsDataURL(f);
          }),
      ),
    ).then((read) => setPreviews(read.filter((p) => p.url)));
    // The refused files are gone once others are picked: their error goes too.
    setShownError(undefined);
  };
  return (
    <div>
      <div className="flex flex-col items-center rounded-lg border-2 border-dashed border-neutral-300 px-4 py-5 text-center text-sm text-neutral-700 focus-within:ring-2 focus-within:ring-neutral-900">
        <ImagePlus aria-hidden className="mb-1 size-6 text-neutral-500" />
        <label htmlFor="newImages" className="font-semibold">
          Add pictures
        </label>
        <p id="newImages-hint" className="kit-hint">
          JPEG, PNG, WebP, AVIF or GIF, up to 10 MB in all; uploaded when you save.
        </p>
        <input
          id="newImages"
          name="newImages"
          type="file"
          multiple
          accept={MEDIA_ACCEPT}
          onChange={onPick}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={shownError ? 'newImages-error newImages-hint' : 'newImages-hint'}
          className="mt-2 max-w-full text-xs"
        />
      </div>
      {shownError && <FieldError id="newImages-error" message={shownError} testId="error-newImages" />}
      {previews.length > 0 && (
        <ul aria-label="New pictures, saved with the product" className="mt-3 grid grid-cols-4 gap-2 sm:grid-cols-6">
          {previews.map((p) => (
            <li key={`${p.name}-${p.url.length}`}>
              <img
                src={p.url}
                alt={p.name}
                className="aspect-square w-full rounded-md border border-neutral-200 bg-neutral-100 object-cover"
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
