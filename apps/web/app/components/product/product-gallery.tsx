import { useState } from 'react';
import { FIRST_PAINT_IMAGE } from '../../lib/first-paint-image';
import { mediaSrcSet } from '../../lib/media';
import { NO_PRODUCT_IMAGE } from './product-card';

const WIDTHS = [480, 640, 800, 1200, 1600] as const;
const SIZES = '(min-width: 1280px) 620px, (min-width: 768px) 50vw, 100vw';

/**
 * The product's pictures, largest first. Small, medium and detail are often one photograph at three
 * sizes ("x-small.webp", "x-detail.webp"): those count once, so the page shows no row of identical
 * thumbnails.
 */
export function galleryImages(p: {
  smallImageUrl: string | null;
  mediumImageUrl: string | null;
  detailImageUrl: string | null;
}): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const u of [p.detailImageUrl, p.mediumImageUrl, p.smallImageUrl]) {
    if (!u?.startsWith('http')) continue;
    const key = u.replace(/[?#].*$/, '').replace(/[-_](small|medium|detail|large|thumb)(\.\w+)$/i, '$2');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(u);
  }
  return out;
}

export function ProductGallery({ images, name }: { images: string[]; name: string }) {
  const [index, setIndex] = useState(0);
  const current = images[index] ?? images[0] ?? null;
  return (
    <div className="md:sticky md:top-6" data-testid="gallery">
      <div className="aspect-square overflow-hidden rounded-xl bg-slate-100">
        <img
          src={current ?? NO_PRODUCT_IMAGE}
          srcSet={mediaSrcSet(current, WIDTHS)}
          sizes={SIZES}
          alt={name}
          width={1200}
          height={1200}
          {...FIRST_PAINT_IMAGE}
          className="h-full w-full object-cover"
          data-testid="gallery-main"
        />
      </div>
      {images.length > 1 && (
        <ul className="mt-3 grid grid-cols-5 gap-2" aria-label="Product pictures">
          {images.map((src, i) => (
            <li key={src}>
              <button
                type="button"
                onClick={() => setIndex(i)}
                aria-label={`Show picture ${i + 1} of ${images.length}`}
                aria-pressed={i === index}
                className={`block aspect-square w-full overflow-hidden rounded-md border-2 bg-slate-100 ${
                  i === index ? 'border-slate-900' : 'border-transparent hover:border-slate-300'
                }`}
              >
                <img
                  src={src}
                  srcSet={mediaSrcSet(src, [160, 320])}
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
