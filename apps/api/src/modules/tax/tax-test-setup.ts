import { createTestApp, signIn } from '../../test/harness';
import { createStaff } from '../../test/staff';

export const HOST = 'lighting.localhost';

/**
 * The tax tests' app, written once (tax.test.ts, tax-drafts.test.ts): the lighting store's owner, a
 * staff member with the settings permission (who may change taxes) and one with orders only (who may not).
 */
export async function taxTestApp() {
  const t = await createTestApp();
  await createStaff(t.database, 'lighting', 'taxes@lighting.test', ['settings']);
  await createStaff(t.database, 'lighting', 'packer@lighting.test', ['orders']);
  return {
    t,
    db: t.database.db,
    owner: await signIn(t.app, 'owner@lighting.test', 'owner-demo-1', HOST),
    settingsStaff: await signIn(t.app, 'taxes@lighting.test', 'owner-demo-1', HOST),
    ordersStaff: await signIn(t.app, 'packer@lighting.test', 'owner-demo-1', HOST),
  };
}
