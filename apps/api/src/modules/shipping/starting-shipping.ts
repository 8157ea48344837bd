import { schema, type Tx } from '@app/db';

/**
 * A new store's shipping, written in signup's provisioning transaction: one zone, the United States
 * and Canada, with Standard (free from 99.00) and Express, which the owner edits in Settings,
 * Shipping. The shipping module owns the tables; signup writes a new store's through this (re-exported by checkout, which signup calls it through).
 */
export async function addStartingShippingMethods(tx: Tx, tenantId: string): Promise<void> {
  await tx
    .insert(schema.shippingZones)
    .values({ tenantId, zoneId: 'NORTH_AMERICA', name: 'United States and Canada', countries: ['USA', 'CAN'] });
  await tx.insert(schema.shippingMethods).values([
    {
      tenantId,
      methodId: 'STANDARD',
      zoneId: 'NORTH_AMERICA',
      name: 'Standard',
      description: '3 to 5 business days',
      kind: 'flat',
      flatRate: 695,
      freeAbove: 9900,
      sequenceNum: 0,
    },
    {
      tenantId,
      methodId: 'EXPRESS',
      zoneId: 'NORTH_AMERICA',
      name: 'Express',
      description: '1 to 2 business days',
      kind: 'flat',
      flatRate: 2495,
      sequenceNum: 1,
    },
  ]);
}
