import type { Address } from '../addresses';
import type { SavedCard } from '../cards';
import type { CardField, FormOutcome } from '../storefront';

/** The signed-in shopper's saved cards. */
export interface CardsPages {
  /** The signed-in shopper's saved cards, and addresses to bill them to. */
  cards(): Promise<{ cards: SavedCard[]; addresses: Address[] }>;
  /** Saves a new card through the payment provider. */
  addCard(
    input: Record<CardField | 'billingContactMechId', string>,
  ): Promise<{ ok: true; message: string } | FormOutcome<CardField>>;
  removeCard(paymentMethodId: string): Promise<{ ok: true; message: string } | FormOutcome<never>>;
}
