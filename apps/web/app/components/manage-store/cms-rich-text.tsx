import { lazy, Suspense, useEffect, useState } from 'react';
import type { CmsRichTextProps } from './cms-rich-text-props';

/**
 * The page body field of the CMS editor. Without JavaScript, and until the browser has
 * hydrated, it is a plain textarea of HTML named `content`, so the form always works. With
 * JavaScript it becomes the Tiptap rich-text editor, loaded only here (a separate chunk), so no
 * storefront page grows. The server sanitises whatever arrives either way.
 */
const TiptapEditor = lazy(() => import('./cms-tiptap-editor'));

export function CmsRichText(props: CmsRichTextProps) {
  const { name, label, defaultValue, error } = props;
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const errorId = `${name}-error`;
  const textarea = (
    <textarea
      id={name}
      name={name}
      defaultValue={defaultValue}
      rows={14}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : `${name}-hint`}
      className={`w-full rounded-lg border px-3 py-2 font-mono text-sm ${error ? 'border-red-600' : 'border-neutral-300'}`}
    />
  );
  return (
    <div>
      <label htmlFor={name} className="mb-1.5 block text-sm font-medium text-neutral-800">
        {label}
      </label>
      {enhanced ? (
        <Suspense fallback={textarea}>
          <TiptapEditor {...props} errorId={error ? errorId : undefined} />
        </Suspense>
      ) : (
        <>
          {textarea}
          <p id={`${name}-hint`} className="mt-1 text-xs text-neutral-500">
            HTML: headings, paragraphs, lists, links, images and tables. Scripts and styles are removed.
          </p>
        </>
      )}
      {error && (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
