import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/harness';
import { type MoveWorld, moveStore, openMoveWorld, PLATFORM } from './store-move.fixture';

// Sign-up's confirmation mail tells an email that already owns a store where to sign in (decision
// 103). A moved store's accounts live on its new database (decision 123): the mail must list that
// store too, not only the stores whose owners are at home. The set-up moves "lighting".

let world: MoveWorld;
let t: TestApp;

beforeAll(async () => {
  world = await openMoveWorld();
  ({ t } = world);
  await moveStore(world, 'lighting');
}, 180_000);
afterAll(async () => {
  await world?.close();
});

/** The sign-up mails in the outbox to `email` for `subdomain`, soft line breaks undone. */
function signupMails(email: string, subdomain: string): string[] {
  const outbox = join(t.dataDir, 'outbox');
  return readdirSync(outbox)
    .map((f) => readFileSync(join(outbox, f), 'utf8').replace(/=\r?\n/g, ''))
    .filter((m) => m.includes(email) && m.includes(`${subdomain}.localhost`));
}

async function signUp(email: string, subdomain: string, ip: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/platform-api/signup',
    headers: { host: PLATFORM },
    remoteAddress: ip,
    payload: {
      storeName: 'Second Lamps',
      subdomain,
      email,
      password: 'bright-lamps-2026',
      template: 'DEFAULT',
      starter: 'empty',
    },
  });
  expect(res.statusCode, res.body).toBe(202);
}

describe('sign-up once a store has moved to another database', () => {
  it("tells the moved store's owner, in the mail, that the email already owns it", async () => {
    await signUp('owner@lighting.test', 'lighting-two', '10.9.0.1');
    const [mail, ...more] = signupMails('owner@lighting.test', 'lighting-two');
    expect(more).toHaveLength(0);
    expect(mail).toContain('already owns a store');
    // The link to lighting's sign-in page (the new subdomain, lighting-two, is another host).
    expect(mail).toMatch(/\/\/lighting\.localhost(:\d+)?\/auth\/login/);

    // An email owning no store, on either database, is told nothing of the kind.
    await signUp('nobody-yet@example.com', 'fresh-lamps', '10.9.0.2');
    const [fresh] = signupMails('nobody-yet@example.com', 'fresh-lamps');
    expect(fresh).toBeDefined();
    expect(fresh).not.toContain('already owns');
  }, 60_000);
});
