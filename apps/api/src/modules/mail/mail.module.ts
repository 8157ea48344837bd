import { defineModule } from '../../lib/module';
import { createMailQueue, type MailQueue } from './mail-queue';
import { mailboxRoutes } from './mailbox.routes';
import { createMailer, type Mailer } from './mailer';

declare module '../../lib/module' {
  interface ModuleServices {
    /** `mailer` queues mail as jobs; `transport` sends it (SMTP, or .eml files in DATA_DIR/outbox). */
    mail: { mailer: MailQueue; transport: Mailer };
  }
  interface BuildOptions {
    /** Outgoing mail's transport; by default SMTP_URL, else .eml files in DATA_DIR/outbox. */
    mailer?: Mailer;
  }
}

export const mailModule = defineModule({
  name: 'mail',
  needs: ['jobs'],
  create({ config, options }, { jobs }) {
    const transport =
      options.mailer ??
      createMailer({
        smtpUrl: config.SMTP_URL,
        from: config.MAIL_FROM ?? 'Storefront Platform <no-reply@storefront.localhost>',
        outboxDir: `${config.DATA_DIR}/outbox`,
      });
    return { mailer: createMailQueue(jobs, transport), transport };
  },
  async routes(app, _s, { config, options }) {
    // The dev mailbox shows the outbox; in production mail leaves by SMTP and this page does not exist.
    if (config.NODE_ENV !== 'production' && !config.SMTP_URL && !options.mailer) {
      await app.register(mailboxRoutes, { outboxDir: `${config.DATA_DIR}/outbox` });
    }
  },
  // The job runner, built before, has stopped: no mail job is sending any more.
  onClose: ({ transport }) => transport.close(),
});
