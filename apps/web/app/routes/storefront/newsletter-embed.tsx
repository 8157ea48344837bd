import { NEWSLETTER_EMBED_CSP, newsletterEmbedDocument } from '../../lib/newsletter-embed';
import type { Route } from './+types/newsletter-embed';

/**
 * The footer's newsletter frame, as a document of its own address rather than `srcdoc`: Chromium
 * makes a `srcdoc` frame as the page loads, wherever it is, and on the garden store that frame was
 * the largest piece of main-thread work left on the home page (decision 065). A frame with an
 * address loads lazily, when the footer comes near the screen.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const shell = await context.api.shell();
  const doc = shell ? newsletterEmbedDocument(shell.store) : null;
  if (!doc) throw new Response('Not Found', { status: 404 });
  return new Response(doc, {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': NEWSLETTER_EMBED_CSP,
      'x-robots-tag': 'noindex',
      // The owner may change it at any time.
      'cache-control': 'private, no-cache',
    },
  });
}
