export { paymentIssuesPages } from './payment-issues.pages';
export { paymentIssuesRoutes } from './payment-issues.routes';
export { createPaymentIssuesService, type NewPaymentIssue, type PaymentIssuesService } from './payment-issues.service';
