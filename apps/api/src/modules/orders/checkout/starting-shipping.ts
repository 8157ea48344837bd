import { schema, type Tx } from '@app/db';

/**
 * A new store's shipping methods, written in signup's provisioning transaction: Standard (free
 * above 99.00) and Express, to the United States and Canada, which the owner edits later. Checkout
 * owns the shipping methods; signup writes a new store's through this.
 */
export async function addStartingShippingMethods(tx: Tx, tenantId: string): Promise<void> {
  await tx.insert(schema.shippingMethods).values([
    {
      tenantId,
      methodId: 'STANDARD',
      name: 'Standard',
      description: '3 to 5 business days',
      kind: 'flat',
      countries: ['USA', 'CAN'],
      flatRate: 695,
      freeAbove: 9900,
      sequenceNum: 0,
    },
    {
      tenantId,
      methodId: 'EXPRESS',
      name: 'Express',
      description: '1 to 2 business days',
      kind: 'flat',
      countries: ['USA', 'CAN'],
      flatRate: 2495,
      sequenceNum: 1,
    },
  ]);
}
