import { STARTING_TAX_RATES, schema, type Tx } from '@app/db';
import { DEFAULT_TAX_SETTINGS } from './tax.service';

/**
 * A new store's tax, written in sign-up's provisioning transaction: the demo stores' rates (the
 * United States states they sell to and Canada, as the starting shipping zone) and prices entered
 * without tax, as in the United States. The owner changes them in Settings, Taxes.
 */
export async function addStartingTaxes(tx: Tx, tenantId: string): Promise<void> {
  await tx.insert(schema.taxRates).values(STARTING_TAX_RATES.map((r) => ({ tenantId, ...r })));
  await tx.insert(schema.storeTaxSettings).values({ tenantId, ...DEFAULT_TAX_SETTINGS });
}
