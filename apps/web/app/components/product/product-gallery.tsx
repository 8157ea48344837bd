import { useState } from 'react';
import { FIRST_PAINT_IMAGE } from '../../lib/first-paint-image';
import { mediaSrcSet } from '../../lib/media';
import { NO_PRODUCT_IMAGE } from './product-card';

const WIDTHS = [480, 640, 800, 1200, 1600] as const;
const SIZES = '(min-width: 1280px) 620px, (min-width: 768px) 50vw, 100vw';

/** A picture of the gallery (ProductDetails.images): its alt text null when the name stands in. */
export interface GalleryImage {
  url: string;
  altText: string | null;
}

/**
 * The large picture with a row of thumbnails. Every box has a fixed aspect ratio and the images
 * their width and height (no layout shift while pictures load); thumbnails are buttons (Tab, then
 * Enter or Space), each named by its picture's alt text, the chosen one pressed.
 */
export function ProductGallery({ images, name }: { images: GalleryImage[]; name: string }) {
  const [index, setIndex] = useState(0);
  const current = images[index] ?? images[0] ?? null;
  const altOf = (i: number) => images[i]?.altText ?? (images.length > 1 ? `${name}, picture ${i + 1}` : name);

  return (
    <div className="md:sticky md:top-6" data-testid="gallery">
      <div className="aspect-square overflow-hidden rounded-xl bg-slate-100">
        <img
          src={current?.url ?? NO_PRODUCT_IMAGE}
          srcSet={mediaSrcSet(current?.url, WIDTHS)}
          sizes={SIZES}
          alt={current ? altOf(index) : name}
          width={1200}
          height={1200}
          {...FIRST_PAINT_IMAGE}
          className="h-full w-full object-cover"
          data-testid="gallery-main"
        />
      </div>
      {images.length > 1 && (
        <ul className="mt-3 grid grid-cols-5 gap-2" aria-label="Product pictures">
          {images.map((img, i) => (
            <li key={img.url}>
              <button
                type="button"
                onClick={() => setIndex(i)}
                aria-label={`Show picture ${i + 1} of ${images.length}: ${altOf(i)}`}
                aria-pressed={i === index}
                className={`block aspect-square w-full overflow-hidden rounded-md border-2 bg-slate-100 ${
                  i === index ? 'border-slate-900' : 'border-transparent hover:border-slate-300'
                }`}
                data-testid="gallery-thumb"
              >
                <img
                  src={img.url}
                  srcSet={mediaSrcSet(img.url, [160, 320])}
                  sizes="120px"
                  alt=""
                  width={120}
                  height={120}
                  loading="lazy"
                  className="h-full w-full object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
