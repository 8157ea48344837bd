// Starts the Stripe stand-in for browser tests and the offline demo: `npx tsx e2e/stripe-stand-in.ts`.
// STRIPE_STAND_IN_PORT picks the port (0 or unset: any free one); the URL is printed once listening.
// STRIPE_STAND_IN_ACCOUNTS='sk_test_…:whsec_…,…' are the accounts (secret key and webhook signing
// secret) it knows; STRIPE_WEBHOOK_DELIVER_TO (host:port) is where its signed events are sent, with
// the store's host (from the session's success_url) in the Host header.
import { startStripeStandIn } from '../apps/api/src/test/stripe-stand-in';

const rawPort = process.env.STRIPE_STAND_IN_PORT ?? '0';
const port = Number(rawPort);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`STRIPE_STAND_IN_PORT must be a port number, got "${rawPort}".`);
  process.exit(1);
}
const accounts = (process.env.STRIPE_STAND_IN_ACCOUNTS ?? 'sk_test_standin4242:whsec_standin')
  .split(',')
  .filter(Boolean)
  .map((pair) => {
    const colon = pair.indexOf(':');
    return { secretKey: pair.slice(0, colon), webhookSecret: pair.slice(colon + 1) };
  });
const standIn = await startStripeStandIn({
  port,
  accounts,
  ...(process.env.STRIPE_WEBHOOK_DELIVER_TO ? { deliverTo: process.env.STRIPE_WEBHOOK_DELIVER_TO } : {}),
});
console.log(`Stripe stand-in listening on ${standIn.url}`);

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    standIn.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('Stripe stand-in did not close cleanly:', err);
        process.exit(1);
      },
    );
  });
}
