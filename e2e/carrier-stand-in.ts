// Starts the carriers' stand-in (UPS and FedEx) for browser tests and the offline demo:
// `npx tsx e2e/carrier-stand-in.ts`. CARRIER_STAND_IN_PORT picks the port (0 or unset: any free one);
// CARRIER_STAND_IN_ACCOUNTS='clientId:secret:accountNumber,...' are the accounts it knows (a demo one by default).
import { startCarrierStandIn } from '../apps/api/src/test/carrier-stand-in';

const rawPort = process.env.CARRIER_STAND_IN_PORT ?? '0';
const port = Number(rawPort);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`CARRIER_STAND_IN_PORT must be a port number, got "${rawPort}".`);
  process.exit(1);
}

const accounts = (process.env.CARRIER_STAND_IN_ACCOUNTS ?? 'demo-carrier-client:demo-carrier-secret:DEMO1234')
  .split(',')
  .filter(Boolean)
  .map((triple) => {
    const [clientId = '', clientSecret = '', accountNumber = ''] = triple.split(':');
    return { clientId, clientSecret, accountNumber };
  });

const standIn = await startCarrierStandIn({ port, accounts });
console.log(`Carrier stand-in (UPS and FedEx) listening on ${standIn.url}`);
console.log(`Accounts: ${accounts.map((a) => `${a.clientId} / ${a.clientSecret} / ${a.accountNumber}`).join(', ')}`);

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    standIn.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('Carrier stand-in did not close cleanly:', err);
        process.exit(1);
      },
    );
  });
}
