export { mailModule } from './mail.module';
export { createMailQueue, MAIL_JOB, type MailQueue } from './mail-queue';
export { mailboxRoutes } from './mailbox.routes';
export { createMailer, type Mailer, type MailMessage } from './mailer';
