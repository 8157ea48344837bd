import type { OrderPageFormResult, PaymentStatus, StaffOrder } from '@app/contracts';
import {
  CARRIER_KEYS,
  CARRIERS,
  decimalAmount,
  formatMoney,
  ORDER_NOTE_MAX,
  REFUND_REASON_MAX,
} from '@app/contracts/client';
import { ArrowLeft, FileDown, LoaderCircle } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { data, Link, useNavigation } from 'react-router';
import { Card, DashboardLayout, primaryAction, secondaryAction } from '../../components/manage-store/dashboard-layout';
import { FormAlert } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/orders_.$orderId';

/** The panels a header action opens (`?do=…`): links, so they open without JavaScript too. */
const PANELS = ['fulfil', 'refund', 'cancel'] as const;
type Panel = (typeof PANELS)[number];

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const order = await dashboardRead(request, () => context.api.staffOrderPage(params.orderId));
  if (!order) throw data({ message: 'No such order in this store.' }, { status: 404 });
  const asked = new URL(request.url).searchParams.get('do');
  const panel = (PANELS as readonly string[]).includes(asked ?? '') ? (asked as Panel) : null;
  return { order, panel };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const values: Record<string, string> = {};
  for (const [k, v] of form) if (typeof v === 'string' && k !== '_csrf') values[k] = v.slice(0, 2100);
  const result: OrderPageFormResult = await dashboardRead(request, () =>
    context.api.orderPageAction(params.orderId, values),
  );
  return data({ result, values }, { status: result.ok ? 200 : result.status });
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return dashboardMeta(matches, loaderData ? `Order ${loaderData.order.orderId}` : 'Order');
}

const STATUS_TONE: Record<string, string> = {
  placed: 'bg-amber-100 text-amber-900',
  paid: 'bg-sky-100 text-sky-900',
  fulfilled: 'bg-indigo-100 text-indigo-900',
  delivered: 'bg-green-100 text-green-900',
  completed: 'bg-green-100 text-green-900',
  cancelled: 'bg-neutral-200 text-neutral-800',
  refunded: 'bg-neutral-200 text-neutral-800',
};
const PAYMENT_TONE: Record<PaymentStatus, string> = {
  pending: 'bg-amber-100 text-amber-900',
  paid: 'bg-green-100 text-green-900',
  partially_refunded: 'bg-orange-100 text-orange-900',
  refunded: 'bg-neutral-200 text-neutral-800',
  voided: 'bg-neutral-200 text-neutral-800',
};

function Badge({ tone, children, testId }: { tone: string; children: ReactNode; testId?: string }) {
  return (
    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${tone}`} data-testid={testId}>
      {children}
    </span>
  );
}

const input =
  'h-9 w-full rounded-lg border bg-white px-2.5 text-sm text-neutral-900 focus:outline-none focus:ring-2 focus:ring-neutral-300';
const border = (bad: boolean) => (bad ? 'border-red-600' : 'border-neutral-300');
const dangerAction =
  'inline-flex h-9 items-center gap-1.5 rounded-lg bg-red-700 px-3.5 text-sm font-semibold text-white shadow-sm hover:bg-red-600';

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1 text-sm font-medium text-red-700">
      {message}
    </p>
  );
}

/** The submit button of one intent: spins while that form is being sent (with JavaScript). */
function Submit({ intent, className, children }: { intent: string; className: string; children: ReactNode }) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  return (
    <button type="submit" className={className} disabled={pending}>
      {pending && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
      {children}
    </button>
  );
}

function Notify({ id, checked, children }: { id: string; checked: boolean; children: ReactNode }) {
  return (
    <label htmlFor={id} className="flex items-center gap-2 text-sm text-neutral-800">
      <input
        id={id}
        type="checkbox"
        name="notify"
        defaultChecked={checked}
        className="size-4 rounded border-neutral-400"
      />
      {children}
    </label>
  );
}

type Failure = Extract<OrderPageFormResult, { ok: false }> | null;
type Values = Record<string, string> | null;

function FulfilForm({ order, failure, values }: { order: StaffOrder; failure: Failure; values: Values }) {
  const e = failure?.fieldErrors ?? {};
  const [carrier, setCarrier] = useState(values?.carrier ?? 'ups');
  // Without JavaScript the other carrier's fields always show (nothing could reveal them).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <Card title="Fulfil order">
      <PostForm className="space-y-3" aria-label="Fulfil order" preventScrollReset>
        <input type="hidden" name="intent" value="fulfil" />
        <p className="text-sm text-neutral-600">
          Marks the order as shipped and emails {order.customer.email} the tracking link.
        </p>
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor="carrier" className="mb-1 block text-sm font-medium text-neutral-800">
              Carrier
            </label>
            <select
              id="carrier"
              name="carrier"
              value={carrier}
              onChange={(ev) => setCarrier(ev.target.value)}
              aria-invalid={e.carrier ? true : undefined}
              aria-describedby={e.carrier ? 'carrier-error' : undefined}
              className={`${input} ${border(Boolean(e.carrier))}`}
            >
              {CARRIER_KEYS.map((k) => (
                <option key={k} value={k}>
                  {CARRIERS[k].name}
                </option>
              ))}
            </select>
            <FieldError id="carrier-error" message={e.carrier} />
          </div>
          <div>
            <label htmlFor="trackingNumber" className="mb-1 block text-sm font-medium text-neutral-800">
              Tracking number
            </label>
            <input
              id="trackingNumber"
              name="trackingNumber"
              required
              maxLength={100}
              autoComplete="off"
              defaultValue={values?.trackingNumber ?? ''}
              aria-invalid={e.trackingNumber ? true : undefined}
              aria-describedby={e.trackingNumber ? 'trackingNumber-error' : undefined}
              className={`${input} ${border(Boolean(e.trackingNumber))}`}
            />
            <FieldError id="trackingNumber-error" message={e.trackingNumber} />
          </div>
        </div>
        {/* Another carrier needs its name and its tracking page; without JavaScript they always show. */}
        <fieldset className={`grid gap-3 sm:grid-cols-2 ${hydrated && carrier !== 'other' ? 'hidden' : ''}`}>
          <legend className="sr-only">Other carrier</legend>
          <div>
            <label htmlFor="carrierName" className="mb-1 block text-sm font-medium text-neutral-800">
              Carrier name (other carrier)
            </label>
            <input
              id="carrierName"
              name="carrierName"
              maxLength={100}
              defaultValue={values?.carrierName ?? ''}
              aria-invalid={e.carrierName ? true : undefined}
              aria-describedby={e.carrierName ? 'carrierName-error' : undefined}
              className={`${input} ${border(Boolean(e.carrierName))}`}
            />
            <FieldError id="carrierName-error" message={e.carrierName} />
          </div>
          <div>
            <label htmlFor="trackingUrl" className="mb-1 block text-sm font-medium text-neutral-800">
              Tracking link (other carrier)
            </label>
            <input
              id="trackingUrl"
              name="trackingUrl"
              type="url"
              maxLength={500}
              placeholder="https://"
              defaultValue={values?.trackingUrl ?? ''}
              aria-invalid={e.trackingUrl ? true : undefined}
              aria-describedby={e.trackingUrl ? 'trackingUrl-error' : undefined}
              className={`${input} ${border(Boolean(e.trackingUrl))}`}
            />
            <FieldError id="trackingUrl-error" message={e.trackingUrl} />
          </div>
        </fieldset>
        <Notify id="fulfil-notify" checked={values ? values.notify === 'on' : true}>
          Email the customer the tracking link
        </Notify>
        <div className="flex flex-wrap gap-2">
          <Submit intent="fulfil" className={primaryAction}>
            Mark as shipped
          </Submit>
          <Link to="." className={secondaryAction} preventScrollReset>
            Close
          </Link>
        </div>
      </PostForm>
    </Card>
  );
}

function RefundForm({ order, failure, values }: { order: StaffOrder; failure: Failure; values: Values }) {
  const e = failure?.fieldErrors ?? {};
  const m = (n: number) => formatMoney(n, order.currency);
  const [qty, setQty] = useState<Record<number, number>>(() => {
    const start: Record<number, number> = {};
    for (const l of order.lines) start[l.lineNo] = Number(values?.[`qty-${l.lineNo}`] ?? 0) || 0;
    return start;
  });
  const [shipping, setShipping] = useState(values ? values.refundShipping === 'on' : false);
  const proposed = Math.min(
    order.payment.refundable,
    order.lines.reduce((s, l) => s + l.refundPerUnit * (qty[l.lineNo] ?? 0), 0) +
      (shipping ? order.payment.shippingRefundable : 0),
  );
  return (
    <Card title="Refund">
      <PostForm className="space-y-3" aria-label="Refund" preventScrollReset>
        <input type="hidden" name="intent" value="refund" />
        <p className="text-sm text-neutral-600">
          Up to <strong data-testid="refundable">{m(order.payment.refundable)}</strong> can be refunded, through{' '}
          {order.payment.label}.
        </p>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-neutral-800">Items</legend>
          <ul className="divide-y divide-neutral-100 rounded-lg border border-neutral-200">
            {order.lines.map((l) => {
              const left = l.quantity - l.refundedQuantity;
              return (
                <li key={l.lineNo} className="flex items-center gap-3 px-3 py-2 text-sm">
                  <label htmlFor={`qty-${l.lineNo}`} className="min-w-0 flex-1">
                    <span className="block font-medium text-neutral-900">{l.productName}</span>
                    <span className="block text-xs text-neutral-600">
                      {m(l.refundPerUnit)} each with tax · {left} of {l.quantity} refundable
                    </span>
                  </label>
                  <input
                    id={`qty-${l.lineNo}`}
                    name={`qty-${l.lineNo}`}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={left}
                    disabled={left === 0}
                    defaultValue={values?.[`qty-${l.lineNo}`] ?? '0'}
                    onChange={(ev) => setQty((q) => ({ ...q, [l.lineNo]: Math.max(0, Number(ev.target.value) || 0) }))}
                    className={`${input.replace('w-full', 'w-20 shrink-0')} tabular-nums ${border(Boolean(e.lines))}`}
                  />
                </li>
              );
            })}
          </ul>
          <FieldError id="lines-error" message={e.lines} />
        </fieldset>
        {order.payment.shippingRefundable > 0 && (
          <label htmlFor="refundShipping" className="flex items-center gap-2 text-sm text-neutral-800">
            <input
              id="refundShipping"
              type="checkbox"
              name="refundShipping"
              defaultChecked={shipping}
              onChange={(ev) => setShipping(ev.target.checked)}
              className="size-4 rounded border-neutral-400"
            />
            Refund shipping ({m(order.payment.shippingRefundable)})
          </label>
        )}
        <FieldError id="shipping-error" message={e.shipping} />
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor="amount" className="mb-1 block text-sm font-medium text-neutral-800">
              Amount to refund
            </label>
            <input
              id="amount"
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              placeholder={decimalAmount(proposed, order.currency)}
              defaultValue={values?.amount ?? ''}
              aria-invalid={e.amount ? true : undefined}
              aria-describedby={`amount-hint${e.amount ? ' amount-error' : ''}`}
              className={`${input} tabular-nums ${border(Boolean(e.amount))}`}
            />
            <p id="amount-hint" className="mt-1 text-xs text-neutral-600">
              Proposed: <span data-testid="proposed-amount">{m(proposed)}</span> (items with their tax, and shipping).
              Leave empty to refund it, or type another amount.
            </p>
            <FieldError id="amount-error" message={e.amount} />
          </div>
          <div>
            <label htmlFor="refund-reason" className="mb-1 block text-sm font-medium text-neutral-800">
              Reason (the customer sees it)
            </label>
            <input
              id="refund-reason"
              name="reason"
              maxLength={REFUND_REASON_MAX}
              defaultValue={values?.reason ?? ''}
              aria-invalid={e.reason ? true : undefined}
              className={`${input} ${border(Boolean(e.reason))}`}
            />
            <FieldError id="refund-reason-error" message={e.reason} />
          </div>
        </div>
        <Notify id="refund-notify" checked={values ? values.notify === 'on' : true}>
          Email the customer about the refund
        </Notify>
        <div className="flex flex-wrap gap-2">
          <Submit intent="refund" className={primaryAction}>
            Refund
          </Submit>
          <Link to="." className={secondaryAction} preventScrollReset>
            Close
          </Link>
        </div>
      </PostForm>
    </Card>
  );
}

function CancelForm({ order, failure, values }: { order: StaffOrder; failure: Failure; values: Values }) {
  const e = failure?.fieldErrors ?? {};
  return (
    <section
      aria-labelledby="cancel-heading"
      role="alertdialog"
      aria-describedby="cancel-text"
      className="rounded-xl border border-red-200 bg-white p-4 shadow-[0_1px_0_rgba(0,0,0,0.05)]"
    >
      <h2 id="cancel-heading" className="text-sm font-semibold text-neutral-900">
        Cancel order {order.orderId}?
      </h2>
      <p id="cancel-text" className="mt-1 text-sm text-neutral-700">
        Its items go back into stock
        {order.payment.refundable > 0
          ? `, and ${formatMoney(order.payment.refundable, order.currency)} is refunded to ${order.payment.label}`
          : ''}
        . This cannot be undone.
      </p>
      <PostForm className="mt-3 space-y-3" aria-label="Cancel order" preventScrollReset>
        <input type="hidden" name="intent" value="cancel" />
        <div>
          <label htmlFor="cancel-reason" className="mb-1 block text-sm font-medium text-neutral-800">
            Reason (the customer sees it)
          </label>
          <input
            id="cancel-reason"
            name="reason"
            maxLength={REFUND_REASON_MAX}
            defaultValue={values?.reason ?? ''}
            aria-invalid={e.reason ? true : undefined}
            className={`${input} ${border(Boolean(e.reason))}`}
          />
          <FieldError id="cancel-reason-error" message={e.reason} />
        </div>
        <Notify id="cancel-notify" checked={values ? values.notify === 'on' : true}>
          Email the customer
        </Notify>
        <div className="flex flex-wrap gap-2">
          <Submit intent="cancel" className={dangerAction}>
            Cancel order
          </Submit>
          <Link to="." className={secondaryAction} preventScrollReset>
            Keep order
          </Link>
        </div>
      </PostForm>
    </section>
  );
}

function Address({ a }: { a: StaffOrder['shipTo'] }) {
  return (
    <address className="text-sm not-italic leading-6 text-neutral-700">
      {a.toName}
      <br />
      {a.address1}
      {a.address2 && (
        <>
          <br />
          {a.address2}
        </>
      )}
      <br />
      {a.regionName ? `${a.city}, ${a.regionName} ${a.postalCode}` : `${a.city} ${a.postalCode}`}
      <br />
      {a.countryName}
      {a.phone && (
        <>
          <br />
          {a.phone}
        </>
      )}
    </address>
  );
}

const KIND_LABEL: Record<string, string> = {
  status: 'Status',
  note: 'Note',
  email: 'Email',
  payment: 'Payment',
  refund: 'Refund',
  fulfillment: 'Shipment',
  return: 'Return',
};

/** One order for staff: what was bought and paid, who and where, what happened, and what to do next. */
export default function OrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { order, panel: askedPanel } = loaderData;
  // Beside the payment badge, a paid order's status says what the store still has to do (Shopify's
  // "Unfulfilled"), and a badge that would repeat the payment's ("Refunded" twice) is shown once.
  const statusLabel = order.status === 'paid' ? 'Unfulfilled' : order.statusLabel;
  const result = actionData?.result;
  useActionToast(result);
  const failure: Failure = result && !result.ok ? result : null;
  const values = failure ? (actionData?.values ?? null) : null;
  // A panel stays open while its form has errors, and closes once its action went through.
  const panel: Panel | null =
    failure && (PANELS as readonly string[]).includes(failure.intent)
      ? (failure.intent as Panel)
      : result?.ok && result.intent === askedPanel
        ? null
        : askedPanel;
  const m = (n: number) => formatMoney(n, order.currency);
  const noteError = failure?.intent === 'note' ? failure.fieldErrors.message : undefined;
  // The note's errors show under the note; every other refusal (a 409, a declined refund) says so on top.
  const formAlert = failure && !(failure.intent === 'note' && noteError) ? failure.message : null;

  const primary = order.can.fulfil ? (
    <Link to="?do=fulfil" className={primaryAction} preventScrollReset>
      Fulfil
    </Link>
  ) : order.can.deliver ? (
    <PostForm preventScrollReset>
      <input type="hidden" name="intent" value="deliver" />
      <Submit intent="deliver" className={primaryAction}>
        Mark delivered
      </Submit>
    </PostForm>
  ) : null;

  return (
    <DashboardLayout
      title={`Order ${order.orderId}`}
      description={
        <span className="flex flex-wrap items-center gap-2">
          <Link
            to="/manage-store/orders"
            className="inline-flex items-center gap-1 font-medium text-neutral-700 underline-offset-2 hover:underline"
          >
            <ArrowLeft aria-hidden className="size-4" /> Orders
          </Link>
          <span aria-hidden>·</span>
          <time dateTime={order.placedAt}>{formatDateTime(order.placedAt)}</time>
          <Badge tone={STATUS_TONE[order.status] ?? ''} testId="order-status">
            {statusLabel}
          </Badge>
          {order.paymentStatusLabel !== statusLabel && (
            <Badge tone={PAYMENT_TONE[order.paymentStatus]} testId="payment-status">
              {order.paymentStatusLabel}
            </Badge>
          )}
        </span>
      }
      action={
        <div className="flex flex-wrap items-center gap-2">
          {order.can.refund && (
            <Link to="?do=refund" className={secondaryAction} preventScrollReset>
              Refund
            </Link>
          )}
          {order.can.cancel && (
            <Link to="?do=cancel" className={secondaryAction} preventScrollReset>
              Cancel order
            </Link>
          )}
          <a
            href={`/api/v1/orders/${encodeURIComponent(order.orderId)}/invoice.pdf`}
            className={secondaryAction}
            data-testid="staff-invoice"
          >
            <FileDown aria-hidden className="size-4" /> Invoice PDF
          </a>
          {primary}
        </div>
      }
    >
      <FormAlert message={formAlert} />
      {panel === 'fulfil' && order.can.fulfil && <FulfilForm order={order} failure={failure} values={values} />}
      {panel === 'refund' && order.can.refund && <RefundForm order={order} failure={failure} values={values} />}
      {panel === 'cancel' && order.can.cancel && <CancelForm order={order} failure={failure} values={values} />}
      <div className="grid items-start gap-4 lg:grid-cols-3">
        <div className="min-w-0 space-y-4 lg:col-span-2">
          <Card title="Items" flush>
            <ul className="divide-y divide-neutral-100 border-t border-neutral-100" data-testid="order-lines">
              {order.lines.map((l) => (
                <li key={l.lineNo} className="flex items-start gap-3 px-4 py-3 text-sm">
                  <div className="min-w-0 flex-1">
                    {l.productHref ? (
                      <Link
                        to={l.productHref}
                        className="font-medium text-neutral-900 underline-offset-2 hover:underline"
                      >
                        {l.productName}
                      </Link>
                    ) : (
                      <span className="font-medium text-neutral-900">{l.productName}</span>
                    )}
                    {l.optionsText && <p className="text-neutral-600">{l.optionsText}</p>}
                    <p className="text-neutral-600 tabular-nums">
                      {m(l.unitPrice)} × {l.quantity}
                    </p>
                    {l.refundedQuantity > 0 && (
                      <p className="text-xs font-medium text-orange-800" data-testid={`refunded-qty-${l.lineNo}`}>
                        {l.refundedQuantity} refunded
                      </p>
                    )}
                  </div>
                  <span className="font-medium tabular-nums text-neutral-900">{m(l.lineTotal)}</span>
                </li>
              ))}
            </ul>
            <dl className="space-y-1 border-t border-neutral-100 px-4 py-3 text-sm">
              <div className="flex justify-between gap-3">
                <dt className="text-neutral-600">Subtotal</dt>
                <dd className="tabular-nums">{m(order.subtotal)}</dd>
              </div>
              {order.discount > 0 && (
                <div className="flex justify-between gap-3">
                  <dt className="text-neutral-600">Discount{order.promoCode ? ` (${order.promoCode})` : ''}</dt>
                  <dd className="tabular-nums">−{m(order.discount)}</dd>
                </div>
              )}
              <div className="flex justify-between gap-3">
                <dt className="text-neutral-600">Shipping ({order.shippingMethod})</dt>
                <dd className="tabular-nums">{m(order.shipping)}</dd>
              </div>
              <div className="flex justify-between gap-3">
                <dt className="text-neutral-600">Tax</dt>
                <dd className="tabular-nums">{m(order.tax)}</dd>
              </div>
              <div className="flex justify-between gap-3 border-t border-neutral-100 pt-1.5 font-semibold">
                <dt>Total</dt>
                <dd className="tabular-nums">{m(order.total)}</dd>
              </div>
            </dl>
          </Card>

          <Card
            title="Payment"
            aside={<Badge tone={PAYMENT_TONE[order.paymentStatus]}>{order.paymentStatusLabel}</Badge>}
          >
            <dl className="space-y-1 text-sm">
              <div className="flex justify-between gap-3">
                <dt className="text-neutral-600">Method</dt>
                <dd>
                  {order.payment.label} <span className="text-neutral-500">({order.payment.provider})</span>
                </dd>
              </div>
              <div className="flex justify-between gap-3">
                <dt className="text-neutral-600">Captured</dt>
                <dd className="tabular-nums">{m(order.payment.captured)}</dd>
              </div>
              <div className="flex justify-between gap-3">
                <dt className="text-neutral-600">Refunded</dt>
                <dd className="tabular-nums" data-testid="refunded-total">
                  {m(order.payment.refunded)}
                </dd>
              </div>
              <div className="flex justify-between gap-3 font-semibold">
                <dt>Net</dt>
                <dd className="tabular-nums">{m(order.payment.captured - order.payment.refunded)}</dd>
              </div>
            </dl>
            {order.payment.refunds.length > 0 && (
              <ul className="mt-3 divide-y divide-neutral-100 border-t border-neutral-100 text-sm" aria-label="Refunds">
                {order.payment.refunds.map((r) => (
                  <li key={r.refundId} className="flex flex-wrap items-center gap-2 py-2">
                    <span className="font-medium tabular-nums">{formatMoney(r.amount, r.currency)}</span>
                    <Badge
                      tone={
                        r.status === 'succeeded'
                          ? 'bg-green-100 text-green-900'
                          : r.status === 'pending'
                            ? 'bg-amber-100 text-amber-900'
                            : 'bg-red-100 text-red-900'
                      }
                    >
                      {r.status === 'succeeded' ? 'Refunded' : r.status === 'pending' ? 'Pending' : 'Failed'}
                    </Badge>
                    <span className="text-neutral-600">
                      <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
                      {r.reason && ` · ${r.reason}`}
                      {r.failure && ` · ${r.failure}`}
                    </span>
                    {r.status === 'pending' && (
                      <PostForm className="ml-auto" preventScrollReset>
                        <input type="hidden" name="intent" value="retry" />
                        <input type="hidden" name="refundId" value={r.refundId} />
                        <Submit intent="retry" className={secondaryAction}>
                          Retry
                        </Submit>
                      </PostForm>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </Card>

          {order.shipments.length > 0 && (
            <Card title="Shipments">
              <ul className="space-y-1 text-sm">
                {order.shipments.map((s) => (
                  <li key={s.fulfillmentId}>
                    {s.carrierName}
                    {s.trackingNumber && (
                      <>
                        {' · '}
                        {s.trackingUrl ? (
                          <a
                            href={s.trackingUrl}
                            className="font-medium underline"
                            rel="noopener noreferrer"
                            target="_blank"
                          >
                            {s.trackingNumber}
                          </a>
                        ) : (
                          s.trackingNumber
                        )}
                      </>
                    )}
                    <span className="text-neutral-600">
                      {' · '}
                      <time dateTime={s.shippedAt}>{formatDateTime(s.shippedAt)}</time>
                    </span>
                  </li>
                ))}
              </ul>
            </Card>
          )}

          <Card title="Timeline">
            <PostForm className="mb-4 space-y-2" aria-label="Add a note" preventScrollReset>
              <input type="hidden" name="intent" value="note" />
              <label htmlFor="note-message" className="block text-sm font-medium text-neutral-800">
                Add a note (staff only)
              </label>
              <textarea
                id="note-message"
                name="message"
                rows={2}
                maxLength={ORDER_NOTE_MAX}
                defaultValue={failure?.intent === 'note' ? (values?.message ?? '') : ''}
                key={result?.ok && result.intent === 'note' ? result.message + order.timeline.length : 'note'}
                aria-invalid={noteError ? true : undefined}
                aria-describedby={noteError ? 'note-error' : undefined}
                className={`w-full rounded-lg border bg-white px-2.5 py-2 text-sm focus:outline-none focus:ring-2 focus:ring-neutral-300 ${border(Boolean(noteError))}`}
              />
              <FieldError id="note-error" message={noteError} />
              <Submit intent="note" className={secondaryAction}>
                Add note
              </Submit>
            </PostForm>
            <ol className="space-y-3 border-l border-neutral-200 pl-4" aria-label="Timeline, newest first">
              {order.timeline.map((e) => (
                <li key={e.id} className="relative text-sm">
                  <span aria-hidden className="absolute -left-[21px] top-1.5 size-2 rounded-full bg-neutral-400" />
                  <p className="text-neutral-900">
                    <span className="mr-1.5 text-xs font-semibold uppercase tracking-wide text-neutral-500">
                      {KIND_LABEL[e.kind] ?? e.kind}
                    </span>
                    {e.message}
                  </p>
                  {e.detail && <p className="text-neutral-600">{e.detail}</p>}
                  <p className="text-xs text-neutral-500">
                    <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                    {e.actor && ` · ${e.actor}`}
                    {e.kind !== 'status' && e.visibleToShopper && ' · shown to the customer'}
                  </p>
                </li>
              ))}
            </ol>
          </Card>
        </div>

        <div className="min-w-0 space-y-4">
          <Card title="Customer">
            <p className="text-sm">
              <Link
                to={order.customer.href}
                className="font-medium text-neutral-900 underline-offset-2 hover:underline"
              >
                {order.customer.name}
              </Link>
            </p>
            <p className="text-sm text-neutral-700 [overflow-wrap:anywhere]">{order.customer.email}</p>
            <p className="mt-1 text-sm text-neutral-600">
              {order.customer.registered ? 'Account' : 'Guest'} ·{' '}
              {order.customer.orderCount === 1 ? '1 order' : `${order.customer.orderCount} orders`}
            </p>
          </Card>
          <Card title="Shipping address">
            <Address a={order.shipTo} />
          </Card>
          <Card title="Billing address">
            {order.billTo ? (
              <Address a={order.billTo} />
            ) : (
              <p className="text-sm text-neutral-600">Same as shipping address</p>
            )}
          </Card>
        </div>
      </div>
    </DashboardLayout>
  );
}
