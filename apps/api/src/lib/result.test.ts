import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { formFailure } from './page-request';
import { formRefusal, Refused, refuse, refuseField, returnRefusals } from './result';

// A returned refusal must read, on a form, exactly as the thrown AppError it replaces did: the pages
// (and the shoppers) see no difference between a converted service and one that still throws.
describe('a refusal on a form', () => {
  it('of a field the form has: the message next to the field, capitalised, and the form asks to check it', () => {
    const returned = formRefusal(refuseField(400, 'BAD_REQUEST', 'quantity', 'a cart holds at most 99.'), ['quantity']);
    const thrown = formFailure(AppError.field(400, 'BAD_REQUEST', 'quantity', 'a cart holds at most 99.'), [
      'quantity',
    ]);
    expect(returned).toEqual(thrown);
    expect(returned).toEqual({
      ok: false,
      status: 400,
      message: 'Please check the fields marked below.',
      fieldErrors: { quantity: 'A cart holds at most 99.' },
    });
  });

  it('of a field the form does not have, or of none: the API message over the form, with its code', () => {
    expect(formRefusal(refuseField(400, 'BAD_REQUEST', 'email', 'please enter it.'), ['quantity'])).toEqual(
      formFailure(AppError.field(400, 'BAD_REQUEST', 'email', 'please enter it.'), ['quantity']),
    );
    expect(formRefusal(refuse(409, 'OUT_OF_STOCK', 'Only 2 of Lamp are left in stock.'))).toEqual({
      ok: false,
      status: 409,
      message: 'Only 2 of Lamp are left in stock.',
      fieldErrors: {},
      code: 'OUT_OF_STOCK',
    });
  });

  it("that is its field's whole story (a promo code): the same words next to the field and over the form", () => {
    const r = refuseField(422, 'PROMO_INVALID', 'promoCode', 'SPRING has expired.', {
      apiMessage: 'SPRING has expired.',
      formMessage: 'SPRING has expired.',
    });
    expect(r.message).toBe('SPRING has expired.');
    expect(formRefusal(r, ['promoCode'])).toEqual({
      ok: false,
      status: 422,
      message: 'SPRING has expired.',
      fieldErrors: { promoCode: 'SPRING has expired.' },
    });
  });
});

describe('a refusal found inside a step', () => {
  it('is returned by the operation, and any other error still throws', async () => {
    const soldOut = refuse(409, 'OUT_OF_STOCK', 'Sorry, Lamp sold out while you were checking out.');
    await expect(
      returnRefusals(async () => {
        throw new Refused(soldOut);
      }),
    ).resolves.toBe(soldOut);
    await expect(
      returnRefusals(async () => {
        throw new Error('database gone');
      }),
    ).rejects.toThrow('database gone');
  });
});
