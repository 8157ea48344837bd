import { CreditCard } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { data, useNavigation } from 'react-router';
import { Field, FormAlert, submitClass } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/payment-methods';
import { AccountLayout } from './account-nav';

const FIELDS = ['nameOnCard', 'cardNumber', 'expMonth', 'expYear', 'cvc', 'billingContactMechId'] as const;

export async function loader({ context }: Route.LoaderArgs) {
  return context.api.cards();
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  if (form.get('intent') === 'remove') {
    const result = await context.api.removeCard(String(form.get('paymentMethodId') ?? ''));
    return data({ result, values: null }, { status: result.ok ? 200 : result.status });
  }
  const input = Object.fromEntries(FIELDS.map((f) => [f, String(form.get(f) ?? '').slice(0, 100)])) as Record<
    (typeof FIELDS)[number],
    string
  >;
  const result = await context.api.addCard(input);
  // Only the name and billing choice come back after a refusal: the card number and code are typed again.
  const values = { nameOnCard: input.nameOnCard, billingContactMechId: input.billingContactMechId };
  return data({ result, values }, { status: result.ok ? 200 : result.status });
}

export function meta() {
  return [{ title: 'Payment methods' }, { name: 'robots', content: 'noindex' }];
}

const select =
  'h-11 w-full rounded-md border border-slate-300 bg-white px-3 text-[15px] focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand-light';

export default function PaymentMethods({ loaderData, actionData }: Route.ComponentProps) {
  const { cards, addresses } = loaderData;
  const navigation = useNavigation();
  const result = actionData?.result;
  const failure = result && !result.ok ? result : null;
  const e: Partial<Record<string, string>> = failure?.fieldErrors ?? {};
  useActionToast(result);
  // A saved card leaves nothing of itself in the form; after any answer the security code is gone.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const form = formRef.current;
    if (!form || !result) return;
    if (result.ok) form.reset();
    const cvc = form.elements.namedItem('cvc');
    if (cvc instanceof HTMLInputElement) cvc.value = '';
  }, [result]);
  const year = new Date().getUTCFullYear();
  return (
    <AccountLayout title="Payment methods">
      {cards.length > 0 ? (
        <ul className="grid gap-4 sm:grid-cols-2" data-testid="card-list">
          {cards.map((c) => (
            <li
              key={c.paymentMethodId}
              className="flex items-start gap-4 rounded-xl border border-slate-200 p-5"
              data-testid="saved-card"
            >
              <CreditCard aria-hidden className="mt-0.5 size-6 shrink-0 text-brand" />
              <div className="min-w-0 flex-1">
                <p className="font-semibold text-slate-900">
                  {c.brand} ending in {c.last4}
                </p>
                <p className="text-sm text-slate-600">
                  {c.nameOnCard} · expires {String(c.expMonth).padStart(2, '0')}/{c.expYear}
                  {c.expired && (
                    <span className="ml-2 rounded-full bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-700">
                      Expired
                    </span>
                  )}
                </p>
                <PostForm className="mt-3">
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="paymentMethodId" value={c.paymentMethodId} />
                  <button
                    type="submit"
                    className="text-sm font-semibold text-slate-600 hover:text-red-700 hover:underline"
                  >
                    Remove
                  </button>
                </PostForm>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-slate-600">No saved cards yet. Save one to check out faster.</p>
      )}
      <PostForm
        ref={formRef}
        className="mt-8 max-w-xl space-y-4 rounded-xl border border-slate-200 p-5"
        data-testid="card-form"
        autoComplete="on"
      >
        <h2 className="text-lg font-semibold text-slate-900">Add a card</h2>
        <p className="text-sm text-slate-600">
          Your card number goes straight to our payment provider; we keep only the last four digits.
        </p>
        <FormAlert message={failure && Object.keys(e).length === 0 ? failure.message : null} />
        <Field
          label="Name on card"
          name="nameOnCard"
          autoComplete="cc-name"
          defaultValue={actionData?.values?.nameOnCard}
          error={e.nameOnCard}
        />
        <Field label="Card number" name="cardNumber" type="text" autoComplete="cc-number" error={e.cardNumber} />
        <div className="grid grid-cols-3 gap-4">
          <div>
            <label htmlFor="expMonth" className="mb-1.5 block text-sm font-medium text-slate-800">
              Month
            </label>
            <select id="expMonth" name="expMonth" autoComplete="cc-exp-month" className={select} required>
              {Array.from({ length: 12 }, (_, i) => (
                <option key={i + 1} value={i + 1}>
                  {String(i + 1).padStart(2, '0')}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="expYear" className="mb-1.5 block text-sm font-medium text-slate-800">
              Year
            </label>
            <select id="expYear" name="expYear" autoComplete="cc-exp-year" className={select} required>
              {Array.from({ length: 15 }, (_, i) => (
                <option key={year + i} value={year + i}>
                  {year + i}
                </option>
              ))}
            </select>
          </div>
          <Field label="Security code" name="cvc" type="text" autoComplete="cc-csc" error={e.cvc} />
        </div>
        {e.expYear && <p className="text-sm font-medium text-red-700">{e.expYear}</p>}
        {addresses.length > 0 && (
          <div>
            <label htmlFor="billingContactMechId" className="mb-1.5 block text-sm font-medium text-slate-800">
              Billing address
            </label>
            <select
              id="billingContactMechId"
              name="billingContactMechId"
              className={select}
              defaultValue={
                actionData?.values?.billingContactMechId ??
                addresses.find((a) => a.isDefaultBilling)?.contactMechId ??
                ''
              }
            >
              {addresses.map((a) => (
                <option key={a.contactMechId} value={a.contactMechId}>
                  {a.toName}, {a.address1}, {a.city}
                </option>
              ))}
            </select>
          </div>
        )}
        <button
          type="submit"
          className={`${submitClass} sm:w-auto sm:px-8`}
          disabled={navigation.state === 'submitting'}
        >
          Save card
        </button>
      </PostForm>
    </AccountLayout>
  );
}
