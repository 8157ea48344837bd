/**
 * The customers list reads `customer_summaries`, and no TypeScript writes it: statement triggers on
 * `orders` and `users` (migration 0035, decision 045) recompute a customer's row in the transaction of
 * the write that changed it. They hold a business rule, so they are named here, next to the module that
 * reads their result, and `summaries.test.ts` checks that the database has exactly these and that each
 * keeps the figure it is for. A change to what a customer is (who counts, what "spent" means) is a new
 * migration that replaces the functions, and an edit here.
 *
 * The rules they keep:
 * - one row per shopper account (`u:<userId>`) and per guest email (`g:<email>`, lower-cased); staff and
 *   owners are never customers;
 * - a guest's orders belong to the account with the same email as soon as one exists (the `g:` row goes);
 * - amount spent is captured minus refunded over the customer's orders; unpaid and cancelled orders count
 *   as orders and add nothing;
 * - an order update recomputes only when a figure the list shows changed (amounts, placed date, email,
 *   ship-to name): status changes alone cost nothing;
 * - an advisory lock per customer orders two concurrent writers of one customer.
 *
 * The writes that fire them, each commented where it writes: in the orders domain, checkout's
 * reserve (an order placed), the change to paid (transitionOrder with the captured amount; the
 * sweep's late PayPal capture), a refund (order-refund.ts), checkout's undo (an order erased); in
 * the auth, staff and store-access modules, an account created, renamed, re-addressed or promoted.
 * They stay triggers rather than TypeScript: the rule must hold for every writer of `orders` and
 * `users` in three domains, and under concurrent writers (summaries.test.ts shows both).
 */
export const CUSTOMER_SUMMARY_TRIGGERS = [
  { table: 'orders', name: 'customer_summaries_orders_insert', keeps: "a new order's customer" },
  { table: 'orders', name: 'customer_summaries_orders_update', keeps: 'amounts, dates, email or name changed' },
  { table: 'orders', name: 'customer_summaries_orders_delete', keeps: 'an erased order leaves its customer' },
  { table: 'users', name: 'customer_summaries_users_insert', keeps: "a new account takes its email's guest orders" },
  { table: 'users', name: 'customer_summaries_users_update', keeps: 'name, email or role changed' },
  { table: 'users', name: 'customer_summaries_users_delete', keeps: 'an erased account leaves its guest orders' },
] as const;
