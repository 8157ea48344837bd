/** Zod-free limits of "Payments needing attention", for the dashboard's browser code too. */
export const PAYMENT_ISSUES_PAGE_SIZE = 25;
export const PAYMENT_ISSUE_NOTE_MAX = 500;
