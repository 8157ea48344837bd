// Starts the carriers' stand-in (UPS and FedEx) for browser tests and the offline demo:
// `npx tsx e2e/carrier-stand-in.ts`. CARRIER_STAND_IN_PORT picks the port (0 or unset: any free one);
// CARRIER_STAND_IN_ACCOUNTS='clientId:secret:accountNumber,...' are the accounts it knows (a demo one by default).
// CARRIER_STAND_IN_CONTROL_SOCKET, for browser tests: a Unix socket taking POST /stop and POST /start, which
// close the carriers' port (connections refused, as when UPS is down) and open it again. It is a socket
// apart because the carriers' port cannot carry the call that opens it again.
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
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

const controlSocket = process.env.CARRIER_STAND_IN_CONTROL_SOCKET;
const control = controlSocket
  ? createServer((req, res) => {
      const act =
        req.method === 'POST' && req.url === '/stop'
          ? standIn.stop
          : req.method === 'POST' && req.url === '/start'
            ? standIn.start
            : null;
      if (!act) {
        res.writeHead(404).end();
        return;
      }
      act().then(
        () =>
          res
            .writeHead(200, { 'Content-Type': 'application/json' })
            .end(JSON.stringify({ listening: standIn.listening })),
        (err: unknown) => res.writeHead(500).end(String(err)),
      );
    })
  : null;
if (control && controlSocket) {
  // A socket left by a run that was killed would refuse the listen.
  rmSync(controlSocket, { force: true });
  await new Promise<void>((resolve) => control.listen(controlSocket, resolve));
  console.log(`Stand-in control (POST /stop, /start) on ${controlSocket}`);
}

let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    control?.close();
    standIn.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('Carrier stand-in did not close cleanly:', err);
        process.exit(1);
      },
    );
  });
}
