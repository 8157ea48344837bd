import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { secondaryAction } from '../dashboard-layout';

/**
 * The feed URL in a read-only input (select it and copy, without JavaScript too) and a Copy
 * button, which appears once JavaScript runs, since it needs the clipboard.
 */
export function FeedUrlField({ url, primary }: { url: string; primary?: string }) {
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setReady(true), []);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <div>
      <label htmlFor="feed-url" className="mb-1 block text-sm font-medium text-neutral-800">
        Feed URL
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id="feed-url"
          readOnly
          value={url}
          onFocus={(e) => e.currentTarget.select()}
          aria-describedby="feed-url-hint"
          className="h-9 w-full min-w-0 rounded-lg sm:flex-1 border border-neutral-300 bg-neutral-50 px-3 font-mono text-xs text-neutral-800 focus:outline-none focus:ring-2 focus:ring-neutral-900/20"
        />
        {ready && (
          <button
            type="button"
            className={`${primary ?? secondaryAction} shrink-0 justify-center`}
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(url);
                setCopied(true);
              } catch {
                // No clipboard (an insecure origin): the input stays selectable.
                (document.getElementById('feed-url') as HTMLInputElement | null)?.select();
              }
            }}
          >
            {copied ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
            {copied ? 'Copied' : 'Copy feed URL'}
          </button>
        )}
      </div>
      <p id="feed-url-hint" className="mt-1 text-xs text-neutral-500">
        Give this address to Bonanza (or any marketplace that reads Google Merchant Center feeds). Anyone with it can
        read your product list, so keep it private.
      </p>
      <span role="status" className="sr-only">
        {copied ? 'Feed URL copied' : ''}
      </span>
    </div>
  );
}
