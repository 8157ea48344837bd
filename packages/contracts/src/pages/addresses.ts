import type { AddressField } from '../address-fields';
import type { Address } from '../addresses';
import type { Country, FormOutcome } from '../storefront';

/** The signed-in shopper's address book. */
export interface AddressesPages {
  /** The signed-in shopper's addresses and the countries (with regions) an address may name. */
  addresses(): Promise<{ addresses: Address[]; countries: Country[] }>;
  /** Adds an address, or updates the one `contactMechId` names. */
  saveAddress(
    input: Record<AddressField | 'contactMechId' | 'isDefaultShipping' | 'isDefaultBilling', string>,
  ): Promise<{ ok: true; message: string } | FormOutcome<AddressField>>;
  removeAddress(contactMechId: string): Promise<{ ok: true; message: string } | FormOutcome<never>>;
}
