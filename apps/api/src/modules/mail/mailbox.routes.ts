import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { App } from '../../lib/app-types';
import { AppError } from '../../lib/errors';

/**
 * The development mailbox: mail written to DATA_DIR/outbox (no SMTP_URL) listed at /dev/mailbox and
 * shown one by one, so a developer can follow a reset link without a mail server. Never registered
 * in production.
 */
const NAME = /^[\w.-]+\.eml$/;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** A header of a raw message, unfolded; RFC 2047 words decoded for UTF-8 Q and B encodings. */
function header(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const m = new RegExp(`^${name}: ?(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(head);
  const value = (m?.[1] ?? '').replace(/\r?\n[ \t]/g, ' ');
  return value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

/** The plain-text body, quoted-printable undone. */
function textBody(raw: string): string {
  const body = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n\n');
  const qp = /Content-Transfer-Encoding: quoted-printable/i.test(raw);
  if (!qp) return body;
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

export async function mailboxRoutes(app: App, { outboxDir }: { outboxDir: string }) {
  const list = async () => {
    try {
      return (await readdir(outboxDir))
        .filter((f) => NAME.test(f))
        .sort()
        .reverse();
    } catch {
      return [];
    }
  };
  const page = (title: string, body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#0f172a}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.5rem;border-bottom:1px solid #e2e8f0}pre{white-space:pre-wrap;background:#f8fafc;padding:1rem;border-radius:.5rem}a{color:#1d4ed8}</style></head><body>${body}</body></html>`;

  app.get('/dev/mailbox', { config: { tenant: false }, schema: { hide: true } }, async (_req, reply) => {
    const rows = await Promise.all(
      (await list()).slice(0, 200).map(async (f) => {
        const raw = await readFile(join(outboxDir, f), 'utf8');
        return `<tr><td>${escapeHtml(header(raw, 'Date'))}</td><td>${escapeHtml(header(raw, 'To'))}</td><td><a href="/dev/mailbox/${f}">${escapeHtml(header(raw, 'Subject') || '(no subject)')}</a></td></tr>`;
      }),
    );
    const body = rows.length
      ? `<table><thead><tr><th>Date</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
      : '<p>No mail yet. Mail the platform sends (password resets, welcome messages) shows here.</p>';
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(page('Dev mailbox', `<h1>Dev mailbox</h1><p>${escapeHtml(outboxDir)}</p>${body}`));
  });

  app.get(
    '/dev/mailbox/:name',
    {
      config: { tenant: false },
      schema: {
        hide: true,
        params: z.strictObject({ name: z.string().regex(NAME, 'name: not a message of the mailbox') }),
      },
    },
    async (req, reply) => {
      let raw: string;
      try {
        raw = await readFile(join(outboxDir, req.params.name), 'utf8');
      } catch {
        throw AppError.notFound('No such message in the mailbox.');
      }
      const text = escapeHtml(textBody(raw)).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(
          page(
            header(raw, 'Subject'),
            `<p><a href="/dev/mailbox">← All mail</a></p><h1>${escapeHtml(header(raw, 'Subject'))}</h1><p>To: ${escapeHtml(header(raw, 'To'))}<br>From: ${escapeHtml(header(raw, 'From'))}<br>Date: ${escapeHtml(header(raw, 'Date'))}</p><pre>${text}</pre>`,
          ),
        );
    },
  );
}
