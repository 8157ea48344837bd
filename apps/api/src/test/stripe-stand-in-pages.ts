import type { ServerResponse } from 'node:http';

/** The Stripe stand-in's hosted pages (stripe-stand-in.ts): plain HTML, in Stripe's colours. */

/** Stripe's form encoding back to flat keys (`line_items[0][price_data][currency]`). */
export function parseForm(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(raw)) out[k] = v;
  return out;
}

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function page(res: ServerResponse, status: number, title: string, main: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>` +
      '<style>body{font-family:system-ui,sans-serif;margin:0;background:#f6f9fc;color:#1a1f36}main{max-width:26rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:8px;box-shadow:0 2px 8px #0001}' +
      'label{display:block;margin:.75rem 0 .25rem;font-weight:600}input{font:inherit;width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #8792a2;border-radius:4px}' +
      'button{font:inherit;margin-top:1rem;padding:.6rem 1.2rem;border:0;border-radius:4px;background:#4b3fd6;color:#fff;cursor:pointer}' +
      '.alt{background:#fff;color:#4b3fd6;border:1px solid #4b3fd6}.err{color:#b3093c;font-weight:600}a{color:#4b3fd6}</style>' +
      `</head><body><main>${main}</main></body></html>`,
  );
}

export function redirect(res: ServerResponse, location: string) {
  res.writeHead(303, { location });
  res.end();
}

/** The hosted page's card form for a session, with the card's refusal when there was one. */
export function payForm(p: { sessionId: string; amount: string; cancelUrl: string; error?: string | undefined }) {
  return (
    `<h1>Pay ${escapeHtml(p.amount)}</h1><p>Stripe stand-in (test mode)</p>` +
    (p.error ? `<p class="err" role="alert">${escapeHtml(p.error)}</p>` : '') +
    `<form method="post" action="/pay/${p.sessionId}"><label for="card">Card number</label><input id="card" name="card" autocomplete="cc-number" inputmode="numeric" required>` +
    '<label for="exp">Expiry (MM / YY)</label><input id="exp" name="exp" value="12 / 34"><label for="cvc">CVC</label><input id="cvc" name="cvc" value="123">' +
    `<button type="submit">Pay</button></form><p><a href="${escapeHtml(p.cancelUrl)}">Back to the store</a></p>`
  );
}
