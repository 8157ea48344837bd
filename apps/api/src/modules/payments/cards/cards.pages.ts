import { type CardField, type CardsPages, cardCreateSchema, formNumbers } from '@app/contracts';
import { requireSignedIn } from '../../../lib/access';
import { signedInUser } from '../../../lib/context';
import { fieldFailure, type PageModule, submitForm } from '../../../lib/page-request';
import { formRefusal } from '../../../lib/result';
import type { AddressesService } from '../../addresses/index';
import type { CardsService } from './cards.service';

export function cardsPages(deps: { cards: CardsService; addresses: AddressesService }): PageModule<CardsPages> {
  return (page) => {
    const { ctx } = page;
    return {
      async cards() {
        const me = signedInUser(ctx);
        if (!me) return { cards: [], addresses: [] };
        const [cards, addresses] = await Promise.all([
          deps.cards.list(ctx, me.userId),
          deps.addresses.list(ctx, me.userId),
        ]);
        return { cards, addresses };
      },
      async addCard(input) {
        const fields: CardField[] = ['cardNumber', 'cvc', 'expMonth', 'expYear', 'nameOnCard', 'billingContactMechId'];
        const parsed = cardCreateSchema.safeParse({
          ...formNumbers(input, ['expMonth', 'expYear']),
          billingContactMechId: input.billingContactMechId || null,
        });
        if (!parsed.success) return fieldFailure(parsed.error, fields);
        return submitForm(fields, async () => {
          page.assertFormFromStore();
          const me = requireSignedIn(ctx);
          const saved = await deps.cards.create(ctx, me.userId, parsed.data);
          if (!saved.ok) return formRefusal(saved, fields);
          return { ok: true as const, message: 'Card saved.' };
        });
      },
      async removeCard(paymentMethodId) {
        return submitForm([], async () => {
          page.assertFormFromStore();
          const me = requireSignedIn(ctx);
          await deps.cards.remove(ctx, me.userId, paymentMethodId);
          return { ok: true as const, message: 'Card removed.' };
        });
      },
    };
  };
}
