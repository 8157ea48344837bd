export { mailboxRoutes } from './mailbox.routes';
export { createMailer, type Mailer, type MailMessage } from './mailer';
