import { Eye } from 'lucide-react';
import { useLocation } from 'react-router';
import { PostForm } from '../ui/post-form';

/**
 * Shown across the top of the storefront while the owner previews drafts (decision 032): what they
 * see is not what shoppers see, and the way out is one click. Never rendered for anyone else: the
 * server grants preview only to someone who may edit the store's settings.
 */
export function PreviewBar() {
  const location = useLocation();
  return (
    <div className="flex flex-wrap items-center justify-center gap-x-4 gap-y-1 bg-amber-400 px-4 py-2 text-sm text-amber-950">
      <p className="flex items-center gap-2 font-medium">
        <Eye aria-hidden className="size-4" />
        Preview: you see unpublished changes. Shoppers see the published store.
      </p>
      <PostForm action="/manage-store/preview" className="flex gap-2">
        <input type="hidden" name="preview" value="off" />
        <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
        <button
          type="submit"
          className="rounded-md bg-amber-950 px-3 py-1 font-semibold text-amber-50 hover:bg-amber-900"
        >
          Exit preview
        </button>
      </PostForm>
    </div>
  );
}
