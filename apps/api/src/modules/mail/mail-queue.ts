import type { SQL } from 'drizzle-orm';
import type { TenantContext } from '../../lib/context';
import type { JobRunner, Tx } from '../jobs/index';
import type { Mailer, MailMessage } from './mailer';

export const MAIL_JOB = 'mail.send';

/**
 * How modules send mail: `send` enqueues a `mail.send` job and returns, so no request waits for an
 * SMTP server and a server that is down only delays the mail (the job retries with backoff).
 */
export interface MailQueue {
  /**
   * `key` keeps one mail per key while it waits (a confirmation enqueued twice is sent once); `tx`
   * enqueues it in the caller's transaction, so it goes if and only if the write that caused it commits.
   */
  send(ctx: TenantContext, message: MailMessage, options?: { key?: string; tx?: Tx }): Promise<void>;
  /**
   * The mail's job as a part of another statement, written only when `condition` holds (checkout's
   * receipt goes with the order's change to paid, in one statement). Call `committed()` after it.
   */
  sendWhere(ctx: TenantContext, message: MailMessage, condition: SQL): SQL;
  /**
   * Mail enqueued with `tx` is found by the job runner's next poll (up to a second later): called
   * once that transaction has committed, it goes now.
   */
  committed(): void;
}

/**
 * Registers the `mail.send` job, delivering through `transport` (SMTP or the outbox), and returns the
 * queue modules send through. A worker that dies between the SMTP server's answer and recording it
 * sends the message again: the Message-ID is the job's, so mail clients can tell it is the same one.
 */
export function createMailQueue(jobs: JobRunner, transport: Mailer): MailQueue {
  jobs.register<MailMessage>(
    MAIL_JOB,
    async (job) => {
      await transport.send({ ...job.payload, messageId: `<${job.id}@${job.ctx.hostName}>` });
      return { to: job.payload.to };
    },
    {
      // Ten attempts with doubling backoff: about an hour and a quarter of a mail server being down.
      maxAttempts: 10,
      // Bodies carry reset links and guest order keys: once sent, only who and what stay in the table.
      redact: (m) => ({ to: m.to, subject: m.subject }),
    },
  );
  return {
    async send(ctx, message, options = {}) {
      await jobs.enqueue(
        ctx,
        { type: MAIL_JOB, payload: message, ...(options.key ? { key: options.key } : {}) },
        options.tx ? { tx: options.tx } : {},
      );
    },
    sendWhere(ctx, message, condition) {
      return jobs.insertWhere(ctx, { type: MAIL_JOB, payload: message }, condition);
    },
    committed() {
      jobs.committed();
    },
  };
}
