import type { CheckoutField, CheckoutView, PlaceOrderOutcome } from '@app/contracts';
import {
  ADDRESS_FIELDS,
  descriptionBesideDelivery,
  formatMoney,
  normalPostalCode,
  orderLineVariantText,
  postalCodeFits,
} from '@app/contracts/client';
import { CircleAlert, Lock, ShoppingBag, Tag } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { data, Link, redirect, useNavigation, useSearchParams } from 'react-router';
import { AddressFields, SelectField } from '../../components/ui/address-fields';
import { Field, FocusField, messageFocus, submitClass } from '../../components/ui/form-field';
import { EmptyState, PageContainer, PageTitle } from '../../components/ui/page';
import { PostForm } from '../../components/ui/post-form';
import type { Route } from './+types/checkout';

/**
 * The checkout for the destination in the URL, or, once the form is posted, for the new address,
 * method and email typed: without JavaScript the summary then shows what the order would cost.
 */
function checkoutView(context: Route.LoaderArgs['context'], url: URL, typed?: Record<string, string>) {
  const newAddress = typed && (!typed.shipToContactMechId || typed.shipToContactMechId === 'new');
  const pick = (name: 'countryGeoId' | 'stateProvinceGeoId' | 'postalCode') =>
    (newAddress ? typed[name]?.trim() : undefined) || url.searchParams.get(name) || undefined;
  const countryGeoId = pick('countryGeoId');
  const stateProvinceGeoId = pick('stateProvinceGeoId');
  const postalCode = pick('postalCode');
  const shippingMethodId = typed?.shippingMethodId || url.searchParams.get('shippingMethodId') || undefined;
  const email = typed?.email;
  return context.api.checkout({
    ...(countryGeoId ? { countryGeoId } : {}),
    ...(stateProvinceGeoId ? { stateProvinceGeoId } : {}),
    ...(postalCode ? { postalCode } : {}),
    ...(shippingMethodId ? { shippingMethodId } : {}),
    ...(email ? { email } : {}),
  });
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const view = await checkoutView(context, url);
  // A fresh key per rendering of the form: submitting the same form twice places one order.
  return {
    view,
    idempotencyKey: crypto.randomUUID(),
    paypalCancelled: url.searchParams.get('paypal') === 'cancelled',
    stripeBack: url.searchParams.get('stripe'),
  };
}

const FIELDS = [
  'email',
  'shipToContactMechId',
  'saveAddress',
  ...ADDRESS_FIELDS,
  'shippingMethodId',
  'paymentMethod',
  'paymentMethodId',
  'cardNumber',
  'cvc',
  'expMonth',
  'expYear',
  'nameOnCard',
  'idempotencyKey',
] as const;

type ActionData = {
  values: Record<string, string>;
  /** Place order refused. */
  result?: Extract<PlaceOrderOutcome, { ok: false }>;
  /** The checkout as it is after the refusal (a code switched off, stock or prices changed). */
  view?: CheckoutView;
  /** The promo code just removed from the summary. */
  removed?: string;
};

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const url = new URL(request.url);
  const input = Object.fromEntries(FIELDS.map((f) => [f, String(form.get(f) ?? '').slice(0, 200)]));
  // What was typed comes back, except the card's number and security code.
  const { cardNumber: _n, cvc: _c, ...values } = input;
  // "Remove" by the code in the summary is a button of this form: without JavaScript too, the page
  // that comes back keeps what was typed.
  const removing = String(form.get('removePromo') ?? '').slice(0, 40);
  if (removing) {
    const removed = await context.api.cartAction({ intent: 'remove-promo' });
    if (!removed.ok) {
      const result = { ok: false, status: removed.status, message: removed.message, fieldErrors: {} } as const;
      return data<ActionData>({ result, values }, { status: removed.status });
    }
    return data<ActionData>({ removed: removing, values, view: await checkoutView(context, url, values) });
  }
  const result = await context.api.placeOrder(input);
  // PayPal: off to PayPal's page (303: a plain form post without JavaScript follows it with a GET);
  // PayPal sends the shopper back to /checkout/paypal/return.
  if (result.ok && result.approveUrl !== undefined) throw redirect(result.approveUrl, 303);
  if (result.ok) {
    const key = result.order.accessKey ? `&key=${encodeURIComponent(result.order.accessKey)}` : '';
    throw redirect(`/order?orderId=${encodeURIComponent(result.order.orderId)}${key}&placed=1`);
  }
  // The summary shows the checkout as it is now, for the email typed: a refused discount is gone
  // from the totals. (After a refusal the app does not reload the page's data by itself.)
  const view = await checkoutView(context, url, values);
  return data<ActionData>({ result, values, view }, { status: result.status });
}

/** Where a refusal is, in the order the page shows them: the first one is focused. */
const FOCUS_ORDER: CheckoutField[] = [
  'email',
  'shipToContactMechId',
  ...ADDRESS_FIELDS,
  'shippingMethodId',
  'paymentMethodId',
  'cardNumber',
  'expMonth',
  'expYear',
  'cvc',
  'nameOnCard',
  'lines',
  'promoCode',
];
/** Refusals shown as a message, not by an input: the message itself takes focus. */
const MESSAGE_ONLY: CheckoutField[] = ['shipToContactMechId', 'shippingMethodId', 'lines', 'promoCode'];

/**
 * The id of what the page starts on after an answer: the first field refused (the input, whose
 * message describes it), the message in the summary, the form's own message, or the word that the
 * code is gone. Rendered as `autofocus` (the page without JavaScript) and focused by an effect.
 */
function focusTarget(a: ActionData | undefined): string | null {
  if (!a) return null;
  if (a.removed) return 'promo-removed';
  const failure = a.result;
  if (!failure) return null;
  const field = FOCUS_ORDER.find((f) => failure.fieldErrors[f]);
  if (!field) return 'checkout-alert';
  return MESSAGE_ONLY.includes(field) ? `${field}-error` : field;
}

export default function CheckoutPage({ loaderData, actionData: answer }: Route.ComponentProps) {
  const actionData = answer as ActionData | undefined;
  const { idempotencyKey, paypalCancelled, stripeBack } = loaderData;
  const view = actionData?.view ?? loaderData.view;
  const focus = focusTarget(actionData);
  // The app answers a press without loading a page: focus goes where a new page would have started.
  useEffect(() => {
    if (!actionData || !focus) return;
    const target = document.getElementById(focus);
    target?.focus({ preventScroll: true });
    target?.scrollIntoView({ block: 'center' });
  }, [actionData, focus]);
  const [params, setParams] = useSearchParams();
  const latestParams = useRef(params);
  useEffect(() => {
    latestParams.current = params;
  }, [params]);
  const navigation = useNavigation();
  const failure = actionData?.result ?? null;
  const e: Partial<Record<CheckoutField, string>> = failure?.fieldErrors ?? {};
  const values = actionData?.values ?? {};
  const defaultAddress = view.addresses.find((a) => a.isDefaultShipping) ?? view.addresses[0];
  // A saved address is chosen by default; the new-address fields start empty (or as typed).
  const shipChoice = values.shipToContactMechId || defaultAddress?.contactMechId || 'new';
  const newAddress: Record<string, string> = values;
  const country = params.get('countryGeoId') ?? values.countryGeoId ?? view.destination.countryGeoId;
  const countryName = (geoId: string) => view.countries.find((c) => c.geoId === geoId)?.name ?? geoId;
  // The built-in test provider's card form is off once the store has a live Stripe key (decision 118).
  const testCards = view.testCards !== false;
  const [payWith, setPayWith] = useState(
    values.paymentMethod || (!testCards && view.stripe ? 'stripe' : view.cards.length ? 'saved-card' : 'card'),
  );
  const payOptions: [string, string][] = [
    ...(testCards && view.cards.length > 0 ? ([['saved-card', 'Saved card']] as [string, string][]) : []),
    ...(testCards ? ([['card', view.cards.length > 0 ? 'New card' : 'Card']] as [string, string][]) : []),
    ...(view.stripe ? ([['stripe', 'Pay with card (Stripe)']] as [string, string][]) : []),
    ...(view.paypal ? ([['paypal', 'PayPal']] as [string, string][]) : []),
  ];

  if (view.cart.lines.length === 0) {
    return (
      <PageContainer narrow>
        <PageTitle>Checkout</PageTitle>
        <EmptyState
          icon={<ShoppingBag className="size-10" />}
          title="There is nothing to check out"
          action={{ to: '/', label: 'Continue shopping' }}
        >
          Add products to your cart, then come back here to pay.
        </EmptyState>
      </PageContainer>
    );
  }

  // Rates depend on the destination: a new country or region reloads them, keeping what was typed.
  const destinationChanged = (
    change: Partial<Record<'countryGeoId' | 'stateProvinceGeoId' | 'postalCode' | 'shippingMethodId', string | null>>,
  ) => {
    // From the last change asked for, not the last one loaded: a region then a method, chosen
    // quickly, must both reach the URL.
    const next = new URLSearchParams(latestParams.current);
    for (const [name, value] of Object.entries(change)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    if (next.toString() === latestParams.current.toString()) return;
    latestParams.current = next;
    setParams(next, { replace: true, preventScrollReset: true });
  };
  // Carriers quote by postal code: a complete one of the country's form goes with the destination
  // (decision 117). Read from the field itself, so a code typed before the page woke up counts too.
  const postalFor = (countryGeoId: string) => {
    const typed = (document.getElementById('postalCode') as HTMLInputElement | null)?.value ?? '';
    const code = normalPostalCode(countryGeoId, typed);
    return code && postalCodeFits(countryGeoId, code) ? code : null;
  };
  const q = view.quote;
  const removing = navigation.state === 'submitting' && navigation.formData?.has('removePromo');
  const busy = navigation.state === 'submitting' && !removing;
  const canPlace = !busy && !removing && view.shippingMethods.length > 0;

  return (
    <PageContainer>
      <PageTitle>Checkout</PageTitle>
      {/* The server checks every field and says what is wrong by the field (hidden fields included). */}
      <FocusField.Provider value={focus}>
        <PostForm
          noValidate
          className="group/checkout grid gap-10 lg:grid-cols-[1fr_24rem]"
          data-testid="checkout-form"
        >
          {/* The form's default button (Enter in a field) is its first: Place order, not the summary's Remove. */}
          <button type="submit" hidden tabIndex={-1} aria-hidden disabled={!canPlace} />
          <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
          <div className="space-y-8">
            {failure && Object.keys(e).length === 0 && (
              <p
                {...messageFocus('checkout-alert', focus)}
                role="alert"
                className="flex gap-2 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
                data-testid="form-error"
              >
                <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
                {failure.message}
              </p>
            )}
            {paypalCancelled && !failure && (
              <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
                You left PayPal without paying. Nothing was charged: choose how to pay and place your order.
              </p>
            )}
            {stripeBack && !failure && (
              <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
                {stripeBack === 'cancelled'
                  ? 'You left Stripe without paying. Nothing was charged and your items are back in your cart: choose how to pay and place your order.'
                  : 'Stripe has not confirmed your payment yet. If you paid, your order will be confirmed by email shortly.'}
              </p>
            )}

            <section aria-labelledby="contact-h" className="space-y-4">
              <h2 id="contact-h" className="text-lg font-semibold text-slate-900">
                Contact
              </h2>
              {view.signedIn ? (
                <p className="text-sm text-slate-700">
                  Receipt goes to <strong>{view.email}</strong>
                </p>
              ) : (
                <>
                  <Field
                    label="Email"
                    name="email"
                    type="email"
                    autoComplete="email"
                    defaultValue={values.email}
                    error={e.email}
                  />
                  <p className="text-sm text-slate-600">
                    Have an account?{' '}
                    <Link to="/auth/login?redirectUrl=%2Fcheckout" className="font-medium text-brand hover:underline">
                      Log in
                    </Link>{' '}
                    to use your saved addresses and cards.
                  </p>
                </>
              )}
            </section>

            <section aria-labelledby="ship-h" className="group/ship space-y-4">
              <h2 id="ship-h" className="text-lg font-semibold text-slate-900">
                Shipping address
              </h2>
              {view.addresses.length > 0 && (
                <div role="radiogroup" aria-labelledby="ship-h" className="grid gap-3 sm:grid-cols-2">
                  {view.addresses.map((a) => (
                    <label key={a.contactMechId} className={choiceClass} data-testid="saved-address">
                      <input
                        type="radio"
                        name="shipToContactMechId"
                        value={a.contactMechId}
                        defaultChecked={shipChoice === a.contactMechId}
                        onChange={() =>
                          destinationChanged({
                            countryGeoId: a.countryGeoId,
                            stateProvinceGeoId: a.stateProvinceGeoId ?? '',
                            postalCode: a.postalCode,
                          })
                        }
                        className="mt-1 size-4"
                      />
                      <span className="text-sm text-slate-700">
                        <span className="block font-medium text-slate-900">{a.toName}</span>
                        {a.address1}
                        {a.address2 ? `, ${a.address2}` : ''}
                        <br />
                        {a.city}, {a.postalCode}
                        <br />
                        {countryName(a.countryGeoId)}
                      </span>
                    </label>
                  ))}
                  <label className={choiceClass}>
                    <input
                      id="ship-new"
                      type="radio"
                      name="shipToContactMechId"
                      value="new"
                      defaultChecked={shipChoice === 'new'}
                      className="mt-1 size-4"
                    />
                    <span className="text-sm font-medium text-slate-900">A new address</span>
                  </label>
                  {e.shipToContactMechId && (
                    <p
                      {...messageFocus('shipToContactMechId-error', focus)}
                      className="text-sm font-medium text-red-700 sm:col-span-2"
                    >
                      {e.shipToContactMechId}
                    </p>
                  )}
                </div>
              )}
              {/* Shown with the "new address" choice by CSS alone, so it works without JavaScript too. */}
              <div
                className={
                  view.addresses.length > 0 ? 'hidden space-y-4 group-has-[#ship-new:checked]/ship:block' : 'space-y-4'
                }
                data-testid="new-address"
              >
                <AddressFields
                  countries={view.countries}
                  initial={{
                    ...newAddress,
                    stateProvinceGeoId: params.get('stateProvinceGeoId') ?? newAddress.stateProvinceGeoId ?? '',
                    postalCode: newAddress.postalCode ?? params.get('postalCode') ?? '',
                  }}
                  errors={e}
                  country={country}
                  onCountryChange={(v) =>
                    destinationChanged({ countryGeoId: v, stateProvinceGeoId: null, postalCode: postalFor(v) })
                  }
                  onRegionChange={(v) => destinationChanged({ stateProvinceGeoId: v, postalCode: postalFor(country) })}
                  onPostalCodeChange={() => destinationChanged({ postalCode: postalFor(country) })}
                />
                {view.signedIn && (
                  <label className="flex items-center gap-2 text-sm text-slate-700">
                    <input type="checkbox" name="saveAddress" defaultChecked className="size-4 accent-action" />
                    Save this address to my account
                  </label>
                )}
              </div>
            </section>

            <fieldset
              className="space-y-3"
              aria-describedby={e.shippingMethodId ? 'shippingMethodId-error' : undefined}
            >
              <legend className="mb-3 text-lg font-semibold text-slate-900">Shipping method</legend>
              {view.shippingMethods.length === 0 && (
                <p className="text-sm text-red-700">We do not ship to this country yet.</p>
              )}
              {view.shippingMethods.map((m, i) => (
                <label
                  key={m.methodId}
                  className="flex cursor-pointer items-center justify-between gap-3 rounded-lg border border-slate-300 p-4 has-[:checked]:border-slate-900 has-[:checked]:ring-1 has-[:checked]:ring-slate-900"
                >
                  <span className="flex items-center gap-3">
                    <input
                      type="radio"
                      name="shippingMethodId"
                      value={m.methodId}
                      defaultChecked={
                        values.shippingMethodId
                          ? values.shippingMethodId === m.methodId
                          : view.shippingMethodId
                            ? view.shippingMethodId === m.methodId
                            : i === 0
                      }
                      onChange={() => destinationChanged({ shippingMethodId: m.methodId })}
                      className="size-4"
                    />
                    <span>
                      <span className="block font-medium text-slate-900">{m.name}</span>
                      {m.delivery && <span className="block text-sm text-slate-700">{m.delivery}</span>}
                      {descriptionBesideDelivery(m) && (
                        <span className="block text-sm text-slate-600">{descriptionBesideDelivery(m)}</span>
                      )}
                      {m.freeAbove !== null && (
                        <span className="block text-sm text-green-800">
                          Free when you spend {formatMoney(m.freeAbove, view.cart.currency)} more
                        </span>
                      )}
                    </span>
                  </span>
                  <span className="font-medium text-slate-900">
                    {m.rate === 0 ? 'Free' : formatMoney(m.rate, view.cart.currency)}
                  </span>
                </label>
              ))}
              {e.shippingMethodId && (
                <p
                  {...messageFocus('shippingMethodId-error', focus)}
                  className="text-sm font-medium text-red-700"
                  data-testid="error-shippingMethodId"
                >
                  {e.shippingMethodId}
                </p>
              )}
            </fieldset>

            <fieldset className="space-y-4">
              <legend className="mb-3 text-lg font-semibold text-slate-900">Payment</legend>
              {payOptions.length > 1 ? (
                <div className="flex flex-wrap gap-3 text-sm" role="radiogroup" aria-label="Pay with">
                  {payOptions.map(([v, label]) => (
                    <label
                      key={v}
                      className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-4 py-2.5 font-medium has-[:checked]:border-slate-900 has-[:checked]:ring-1 has-[:checked]:ring-slate-900"
                    >
                      <input
                        type="radio"
                        id={`pay-${v}`}
                        name="paymentMethod"
                        value={v}
                        checked={payWith === v}
                        onChange={() => setPayWith(v)}
                      />
                      {v === 'paypal' ? <PayPalMark /> : label}
                    </label>
                  ))}
                </div>
              ) : (
                <input type="hidden" name="paymentMethod" value={payOptions[0]?.[0] ?? 'card'} />
              )}
              {/* Shown by CSS alone when PayPal is chosen, so the choice works without JavaScript too. */}
              {view.paypal && (
                <p className="hidden rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700 group-has-[#pay-paypal:checked]/checkout:block">
                  You will approve the payment on PayPal, then come back here to see your order. Nothing is charged
                  until you approve it.
                </p>
              )}
              {view.stripe && (
                <p className="hidden rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700 group-has-[#pay-stripe:checked]/checkout:block">
                  You will pay on Stripe’s secure page (your bank may ask you to confirm), then come back here to see
                  your order. Your items are held for you meanwhile.
                </p>
              )}
              {payWith === 'paypal' || payWith === 'stripe' || !testCards ? null : payWith === 'saved-card' &&
                view.cards.length > 0 ? (
                <div className="group-has-[#pay-paypal:checked]/checkout:hidden group-has-[#pay-stripe:checked]/checkout:hidden">
                  <SelectField
                    label="Card"
                    name="paymentMethodId"
                    defaultValue={values.paymentMethodId}
                    options={view.cards.map((c) => [
                      c.paymentMethodId,
                      `${c.brand} •••• ${c.last4}, expires ${c.expMonth}/${c.expYear}`,
                    ])}
                    error={e.paymentMethodId}
                  />
                </div>
              ) : (
                <div className="space-y-4 rounded-lg border border-slate-200 p-4 group-has-[#pay-paypal:checked]/checkout:hidden group-has-[#pay-stripe:checked]/checkout:hidden">
                  <Field
                    label="Card number"
                    name="cardNumber"
                    autoComplete="cc-number"
                    error={e.cardNumber}
                    hint="Test store: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined."
                  />
                  <div className="grid grid-cols-3 gap-3">
                    <Field
                      label="Month"
                      name="expMonth"
                      autoComplete="cc-exp-month"
                      defaultValue={values.expMonth}
                      error={e.expMonth}
                    />
                    <Field
                      label="Year"
                      name="expYear"
                      autoComplete="cc-exp-year"
                      defaultValue={values.expYear}
                      error={e.expYear}
                    />
                    <Field label="CVC" name="cvc" autoComplete="cc-csc" error={e.cvc} />
                  </div>
                  <Field
                    label="Name on card"
                    name="nameOnCard"
                    autoComplete="cc-name"
                    defaultValue={values.nameOnCard}
                    error={e.nameOnCard}
                  />
                </div>
              )}
            </fieldset>
          </div>

          <aside
            aria-label="Order summary"
            className="h-fit space-y-4 rounded-2xl border border-slate-200 bg-slate-50 p-6 lg:sticky lg:top-6"
          >
            <h2 className="text-lg font-semibold text-slate-900">Order summary</h2>
            <ul className="space-y-3 text-sm" aria-describedby={e.lines ? 'lines-error' : undefined}>
              {view.cart.lines.map((l) => (
                <li key={l.lineId} className="flex justify-between gap-3">
                  <span className="text-slate-700">
                    {l.quantity} × {l.productName}
                    {l.variantTitle && <span className="block text-xs text-slate-500">{orderLineVariantText(l)}</span>}
                    {l.optionsText && <span className="block text-xs text-slate-500">{l.optionsText}</span>}
                    {l.problem && <span className="block text-xs font-medium text-red-700">{l.problem}</span>}
                  </span>
                  <span className="font-medium text-slate-900">{formatMoney(l.lineTotal, view.cart.currency)}</span>
                </li>
              ))}
            </ul>
            {e.lines && (
              <p
                {...messageFocus('lines-error', focus)}
                role="alert"
                className="flex gap-1.5 rounded-sm text-sm text-red-700 outline-offset-4"
              >
                <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
                <span>
                  {e.lines}{' '}
                  <Link to="/cart" className="font-medium underline">
                    Change your cart
                  </Link>
                </span>
              </p>
            )}
            <PromoCode view={view} refusal={e.promoCode} removed={actionData?.removed} focus={focus} busy={removing} />
            <Totals quote={q} view={view} />
            <button
              type="submit"
              disabled={!canPlace}
              className={`${submitClass} flex items-center justify-center gap-2`}
            >
              <Lock aria-hidden className="size-4" />
              {busy ? (
                payWith === 'paypal' ? (
                  'Opening PayPal…'
                ) : payWith === 'stripe' ? (
                  'Opening Stripe…'
                ) : (
                  'Placing your order…'
                )
              ) : (
                // Says where the button goes by CSS too: without JavaScript the choice changes no state.
                <>
                  <span className="group-has-[#pay-paypal:checked]/checkout:hidden group-has-[#pay-stripe:checked]/checkout:hidden">
                    Place order
                  </span>
                  <span className="hidden group-has-[#pay-paypal:checked]/checkout:inline">Continue to PayPal</span>
                  <span className="hidden group-has-[#pay-stripe:checked]/checkout:inline">Continue to Stripe</span>
                </>
              )}
            </button>
            <Link to="/cart" className="block text-center text-sm text-brand hover:underline">
              Back to cart
            </Link>
          </aside>
        </PostForm>
      </FocusField.Provider>
    </PageContainer>
  );
}

/**
 * The code on the cart, in the summary, with its Remove button (a button of the checkout form, so
 * what was typed stays). A code that does not apply (refused at Place order, or known not to apply
 * now) says why right under it, in red, and the totals below are without it.
 */
function PromoCode({
  view,
  refusal,
  removed,
  focus,
  busy,
}: {
  view: CheckoutView;
  refusal: string | undefined;
  removed: string | undefined;
  focus: string | null;
  busy: boolean | undefined;
}) {
  const promo = view.cart.promo;
  const problem = refusal ?? (promo ? view.cart.promoProblem : null);
  if (!promo && !problem) {
    if (!removed) return null;
    return (
      <p
        {...messageFocus('promo-removed', focus)}
        role="status"
        className="border-t border-slate-200 pt-4 text-sm text-slate-700"
      >
        {removed} removed. The total below is what you pay.
      </p>
    );
  }
  return (
    <div className="space-y-2 border-t border-slate-200 pt-4" data-testid="checkout-promo">
      {promo && (
        <div className="flex items-center justify-between gap-3">
          <span
            className={`inline-flex min-w-0 items-center gap-1.5 rounded-md px-2.5 py-1 text-sm font-medium ${
              problem ? 'bg-white text-slate-500 ring-1 ring-slate-300' : 'bg-slate-200/70 text-slate-800'
            }`}
          >
            <Tag aria-hidden className="size-3.5 shrink-0" />
            <span className="truncate">{promo.code}</span>
          </span>
          <button
            type="submit"
            name="removePromo"
            value={promo.code}
            disabled={busy}
            aria-label={`Remove promo code ${promo.code}`}
            aria-describedby={problem ? 'promoCode-error' : undefined}
            className="shrink-0 rounded text-sm font-medium text-brand underline-offset-2 hover:underline disabled:opacity-60"
          >
            {busy ? 'Removing…' : 'Remove'}
          </button>
        </div>
      )}
      {problem && (
        <p
          {...messageFocus('promoCode-error', focus)}
          role={refusal ? 'alert' : undefined}
          className="flex gap-1.5 rounded-sm text-sm text-red-700 outline-offset-4"
          data-testid="error-promoCode"
        >
          <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
          {problem}
        </p>
      )}
    </div>
  );
}

function Totals({ quote: q, view }: { quote: CheckoutView['quote']; view: CheckoutView }) {
  const m = (n: number) => formatMoney(n, view.cart.currency);
  return (
    <dl className="space-y-2 border-t border-slate-200 pt-4 text-sm" data-testid="checkout-totals">
      <div className="flex justify-between">
        <dt className="text-slate-600">Subtotal</dt>
        <dd>{m(q.subtotal)}</dd>
      </div>
      {q.discount > 0 && (
        <div className="flex justify-between text-green-800">
          <dt>Discount ({view.cart.promo?.code})</dt>
          <dd>−{m(q.discount)}</dd>
        </div>
      )}
      <div className="flex justify-between">
        <dt className="text-slate-600">Shipping</dt>
        <dd>{q.shipping === 0 ? 'Free' : m(q.shipping)}</dd>
      </div>
      <div className="flex justify-between">
        {/* Prices with tax hold it: the line says so, and the total does not add it again. */}
        <dt className="text-slate-600">{q.taxIncluded ? `Including ${q.taxLabel ?? 'tax'}` : (q.taxLabel ?? 'Tax')}</dt>
        <dd>{m(q.tax)}</dd>
      </div>
      <div className="flex justify-between border-t border-slate-200 pt-3 text-base font-semibold text-slate-900">
        <dt>Total</dt>
        <dd data-testid="checkout-total">{m(q.total)}</dd>
      </div>
    </dl>
  );
}

const choiceClass =
  'flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 p-4 has-[:checked]:border-slate-900 has-[:checked]:ring-1 has-[:checked]:ring-slate-900';

/**
 * PayPal's name in its brand blues; no image request, no third-party script. The wordmark's light
 * blue (#009cde) is 3:1 on white, under what text needs (axe): "Pal" takes PayPal's #0070ba (5:1).
 */
function PayPalMark() {
  return (
    <span className="text-base font-bold italic tracking-tight">
      <span className="text-[#003087]">Pay</span>
      <span className="text-[#0070ba]">Pal</span>
    </span>
  );
}
