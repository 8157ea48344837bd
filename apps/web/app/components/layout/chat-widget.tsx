import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { chatAllowed } from '../../lib/layout-rules';

const VALID_ID = /^[A-Za-z0-9_-]{1,64}(\/[A-Za-z0-9_-]{1,64})?$/;

/**
 * The chat provider's script, added when the store has a widget id (SPEC.md section 1). The id is
 * checked before it becomes part of a URL, and the script never loads on checkout, auth or admin pages.
 */
export function ChatWidget({ widgetId, baseUrl }: { widgetId: string | null; baseUrl: string }) {
  const { pathname } = useLocation();
  const allowed = chatAllowed(pathname);
  useEffect(() => {
    if (!widgetId || !VALID_ID.test(widgetId) || !allowed) return;
    if (document.querySelector('script[data-chat-widget]')) return;
    const nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? '';
    const s = document.createElement('script');
    s.async = true;
    s.src = `${baseUrl.replace(/\/$/, '')}/${widgetId}`;
    s.charset = 'UTF-8';
    s.crossOrigin = 'anonymous';
    s.dataset.chatWidget = widgetId;
    if (nonce) s.nonce = nonce;
    document.body.appendChild(s);
  }, [widgetId, baseUrl, allowed]);
  return null;
}
