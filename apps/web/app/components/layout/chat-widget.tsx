import { chatAllowed } from '@app/contracts/client';
import { useEffect } from 'react';
import { useLocation } from 'react-router';

const VALID_ID = /^[A-Za-z0-9_-]{1,64}(\/[A-Za-z0-9_-]{1,64})?$/;

// The CSP belongs to the document, not to the route: it lets the provider in only if the page the
// browser first loaded allows the chat. This module loads with that document.
const DOCUMENT_ALLOWS_CHAT = typeof window === 'undefined' ? false : chatAllowed(window.location.pathname);

/**
 * The chat provider's script, added when the store has a widget id. The id is
 * checked before it becomes part of a URL, and the script never runs on checkout, account, order,
 * auth or dashboard pages (`chatAllowed`, the rule the server's CSP follows too).
 */
export function ChatWidget({ widgetId, baseUrl }: { widgetId: string | null; baseUrl: string }) {
  const { pathname } = useLocation();
  const allowed = chatAllowed(pathname);
  const configured = Boolean(widgetId && VALID_ID.test(widgetId));
  useEffect(() => {
    if (!configured) return;
    // Crossing between chat and chat-free pages in the app would leave the provider's script
    // running on checkout, or have the CSP block it on the way back: load that page afresh instead.
    if (allowed !== DOCUMENT_ALLOWS_CHAT) {
      window.location.reload();
      return;
    }
    if (!allowed || document.querySelector('script[data-chat-widget]')) return;
    const nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? '';
    const s = document.createElement('script');
    s.async = true;
    s.src = `${baseUrl.replace(/\/$/, '')}/${widgetId}`;
    s.charset = 'UTF-8';
    s.crossOrigin = 'anonymous';
    s.dataset.chatWidget = widgetId ?? '';
    if (nonce) s.nonce = nonce;
    document.body.appendChild(s);
  }, [configured, widgetId, baseUrl, allowed]);
  return null;
}
