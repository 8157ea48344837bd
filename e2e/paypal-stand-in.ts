// Starts the PayPal stand-in for browser tests: `npx tsx e2e/paypal-stand-in.ts`.
// PAYPAL_STAND_IN_PORT picks the port (0 or unset: any free one); the URL is printed once listening.
// PAYPAL_PARTNER_ID (the platform's merchant id), PAYPAL_WEBHOOK_ID and PAYPAL_WEBHOOK_URL (where the
// stand-in sends its own signed webhooks) are optional.
import { startPayPalStandIn } from '../apps/api/src/test/paypal-stand-in';

const rawPort = process.env.PAYPAL_STAND_IN_PORT ?? '0';
const port = Number(rawPort);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PAYPAL_STAND_IN_PORT must be a port number, got "${rawPort}".`);
  process.exit(1);
}

const standIn = await startPayPalStandIn({
  clientId: process.env.PAYPAL_CLIENT_ID || 'stand-in-client',
  clientSecret: process.env.PAYPAL_CLIENT_SECRET || 'stand-in-secret',
  port,
  ...(process.env.PAYPAL_PARTNER_ID ? { partnerId: process.env.PAYPAL_PARTNER_ID } : {}),
  ...(process.env.PAYPAL_WEBHOOK_ID ? { webhookId: process.env.PAYPAL_WEBHOOK_ID } : {}),
  ...(process.env.PAYPAL_WEBHOOK_URL ? { webhookUrl: process.env.PAYPAL_WEBHOOK_URL } : {}),
});
console.log(`PayPal stand-in listening on ${standIn.url}`);
console.log(`PayPal stand-in partner id ${standIn.partnerId}, webhook id ${standIn.webhookId}`);

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    standIn.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('PayPal stand-in did not close cleanly:', err);
        process.exit(1);
      },
    );
  });
}
