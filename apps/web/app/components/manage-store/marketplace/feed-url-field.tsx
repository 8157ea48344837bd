import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/text-field';

/**
 * The feed URL in a read-only input (select it and copy, without JavaScript too) and a Copy
 * button, which appears once JavaScript runs, since it needs the clipboard.
 */
export function FeedUrlField({ url, primary = false }: { url: string; primary?: boolean }) {
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setReady(true), []);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <div className="space-y-2">
      <TextField
        id="feed-url"
        name="feedUrl"
        label="Feed URL"
        readOnly
        value={url}
        onFocus={(e) => e.currentTarget.select()}
        hint="Give this address to Bonanza (or any marketplace that reads Google Merchant Center feeds). Anyone with it can read your product list, so keep it private."
      />
      {ready && (
        <Button
          variant={primary ? 'primary' : 'secondary'}
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
        </Button>
      )}
      <span role="status" className="sr-only">
        {copied ? 'Feed URL copied' : ''}
      </span>
    </div>
  );
}
