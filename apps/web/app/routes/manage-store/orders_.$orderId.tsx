import type { OrderPageFormResult, PaymentStatus, StaffOrder } from '@app/contracts';
import {
  CARRIER_KEYS,
  CARRIERS,
  decimalAmount,
  formatMoney,
  ORDER_NOTE_MAX,
  orderLineVariantText,
  REFUND_REASON_MAX,
} from '@app/contracts/client';
import { ArrowLeft, FileDown, LoaderCircle } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { data, Link, useNavigation } from 'react-router';
import { type BadgeTone, Badge as KitBadge } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button, ButtonLink, type ButtonVariant, buttonClass } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { FieldError } from '../../components/ui/field';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { SelectField } from '../../components/ui/select-field';
import { NumberField, TextAreaField, TextField } from '../../components/ui/text-field';
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

const STATUS_TONE: Record<string, BadgeTone> = {
  placed: 'warning',
  paid: 'warning',
  fulfilled: 'info',
  delivered: 'success',
  completed: 'success',
  cancelled: 'neutral',
  refunded: 'neutral',
};
const PAYMENT_TONE: Record<PaymentStatus, BadgeTone> = {
  pending: 'warning',
  paid: 'success',
  partially_refunded: 'info',
  refunded: 'neutral',
  voided: 'neutral',
};

function Badge({ tone, children, testId }: { tone: BadgeTone | undefined; children: ReactNode; testId?: string }) {
  return (
    <KitBadge tone={tone} data-testid={testId}>
      {children}
    </KitBadge>
  );
}

/** The submit button of one intent: spins while that form is being sent (with JavaScript). */
function Submit({
  intent,
  variant = 'secondary',
  children,
}: {
  intent: string;
  variant?: ButtonVariant;
  children: ReactNode;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  return (
    <Button type="submit" variant={variant} disabled={pending}>
      {pending && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
      {children}
    </Button>
  );
}

function Notify({ id, checked, children }: { id: string; checked: boolean; children: ReactNode }) {
  return <Checkbox id={id} name="notify" defaultChecked={checked} label={children} />;
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
          <SelectField
            label="Carrier"
            name="carrier"
            value={carrier}
            onChange={(ev) => setCarrier(ev.target.value)}
            error={e.carrier}
            options={CARRIER_KEYS.map((k) => ({ value: k, label: CARRIERS[k].name }))}
          />
          <TextField
            label="Tracking number"
            name="trackingNumber"
            required
            maxLength={100}
            autoComplete="off"
            defaultValue={values?.trackingNumber ?? ''}
            error={e.trackingNumber}
          />
        </div>
        {/* Another carrier needs its name and its tracking page; without JavaScript they always show. */}
        <fieldset className={`grid gap-3 sm:grid-cols-2 ${hydrated && carrier !== 'other' ? 'hidden' : ''}`}>
          <legend className="sr-only">Other carrier</legend>
          <TextField
            label="Carrier name (other carrier)"
            name="carrierName"
            maxLength={100}
            defaultValue={values?.carrierName ?? ''}
            error={e.carrierName}
          />
          <TextField
            label="Tracking link (other carrier)"
            name="trackingUrl"
            type="url"
            maxLength={500}
            placeholder="https://"
            defaultValue={values?.trackingUrl ?? ''}
            error={e.trackingUrl}
          />
        </fieldset>
        <Notify id="fulfil-notify" checked={values ? values.notify === 'on' : true}>
          Email the customer the tracking link
        </Notify>
        <div className="flex flex-wrap gap-2">
          <Submit intent="fulfil" variant="primary">
            Mark as shipped
          </Submit>
          <ButtonLink to="." preventScrollReset>
            Close
          </ButtonLink>
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
                <li key={l.lineNo} className="px-3 py-2 text-sm">
                  <NumberField
                    id={`qty-${l.lineNo}`}
                    name={`qty-${l.lineNo}`}
                    className="grid grid-cols-[minmax(0,1fr)_5rem] items-center gap-x-3"
                    label={
                      <>
                        <span className="block font-medium text-neutral-900">{l.productName}</span>
                        <span className="block text-xs font-normal text-neutral-600">
                          {m(l.refundPerUnit)} each with tax · {left} of {l.quantity} refundable
                        </span>
                      </>
                    }
                    type="number"
                    min={0}
                    max={left}
                    disabled={left === 0}
                    defaultValue={values?.[`qty-${l.lineNo}`] ?? '0'}
                    aria-invalid={e.lines ? true : undefined}
                    onChange={(ev) => setQty((q) => ({ ...q, [l.lineNo]: Math.max(0, Number(ev.target.value) || 0) }))}
                  />
                </li>
              );
            })}
          </ul>
          {e.lines && <FieldError id="lines-error" message={e.lines} />}
        </fieldset>
        {order.payment.shippingRefundable > 0 && (
          <Checkbox
            name="refundShipping"
            defaultChecked={shipping}
            onChange={(ev) => setShipping(ev.target.checked)}
            label={`Refund shipping (${m(order.payment.shippingRefundable)})`}
            error={e.shipping}
          />
        )}
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label="Amount to refund"
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            placeholder={decimalAmount(proposed, order.currency)}
            defaultValue={values?.amount ?? ''}
            error={e.amount}
            hint={
              <>
                Proposed: <span data-testid="proposed-amount">{m(proposed)}</span> (items with their tax, and shipping).
                Leave empty to refund it, or type another amount.
              </>
            }
          />
          <TextField
            id="refund-reason"
            label="Reason (the customer sees it)"
            name="reason"
            maxLength={REFUND_REASON_MAX}
            defaultValue={values?.reason ?? ''}
            error={e.reason}
          />
        </div>
        <Notify id="refund-notify" checked={values ? values.notify === 'on' : true}>
          Email the customer about the refund
        </Notify>
        <div className="flex flex-wrap gap-2">
          <Submit intent="refund" variant="primary">
            Refund
          </Submit>
          <ButtonLink to="." preventScrollReset>
            Close
          </ButtonLink>
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
      className="kit-card border-red-200 p-4"
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
        <TextField
          id="cancel-reason"
          label="Reason (the customer sees it)"
          name="reason"
          maxLength={REFUND_REASON_MAX}
          defaultValue={values?.reason ?? ''}
          error={e.reason}
        />
        <Notify id="cancel-notify" checked={values ? values.notify === 'on' : true}>
          Email the customer
        </Notify>
        <div className="flex flex-wrap gap-2">
          <Submit intent="cancel" variant="critical">
            Cancel order
          </Submit>
          <ButtonLink to="." preventScrollReset>
            Keep order
          </ButtonLink>
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
    <ButtonLink to="?do=fulfil" variant="primary" preventScrollReset>
      Fulfil
    </ButtonLink>
  ) : order.can.deliver ? (
    <PostForm preventScrollReset>
      <input type="hidden" name="intent" value="deliver" />
      <Submit intent="deliver" variant="primary">
        Mark delivered
      </Submit>
    </PostForm>
  ) : null;

  return (
    <AdminPage
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
          <Badge tone={STATUS_TONE[order.status]} testId="order-status">
            {statusLabel}
          </Badge>
          {order.paymentStatusLabel !== statusLabel && (
            <Badge tone={PAYMENT_TONE[order.paymentStatus]} testId="payment-status">
              {order.paymentStatusLabel}
            </Badge>
          )}
        </span>
      }
      secondaryActions={
        <>
          {order.can.refund && (
            <ButtonLink to="?do=refund" preventScrollReset>
              Refund
            </ButtonLink>
          )}
          {order.can.cancel && (
            <ButtonLink to="?do=cancel" preventScrollReset>
              Cancel order
            </ButtonLink>
          )}
          <a
            href={`/api/v1/orders/${encodeURIComponent(order.orderId)}/invoice.pdf`}
            className={buttonClass()}
            data-testid="staff-invoice"
          >
            <FileDown aria-hidden className="size-4" /> Invoice PDF
          </a>
        </>
      }
      primaryAction={primary}
    >
      {formAlert && <Banner>{formAlert}</Banner>}
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
                    {l.variantTitle && <p className="text-neutral-600">{orderLineVariantText(l)}</p>}
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
                <dt className="text-neutral-600">{order.taxIncluded ? 'Tax (included in prices)' : 'Tax'}</dt>
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
                      tone={r.status === 'succeeded' ? 'success' : r.status === 'pending' ? 'warning' : 'critical'}
                    >
                      {r.status === 'succeeded' ? 'Refunded' : r.status === 'pending' ? 'Pending' : 'Failed'}
                    </Badge>
                    <span className="text-neutral-600">
                      <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
                      {r.taxAmount > 0 && ` · incl. ${formatMoney(r.taxAmount, r.currency)} tax`}
                      {r.reason && ` · ${r.reason}`}
                      {r.failure && ` · ${r.failure}`}
                    </span>
                    {r.status === 'pending' && (
                      <PostForm className="ml-auto" preventScrollReset>
                        <input type="hidden" name="intent" value="retry" />
                        <input type="hidden" name="refundId" value={r.refundId} />
                        <Submit intent="retry">Retry</Submit>
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
              <TextAreaField
                id="note-message"
                label="Add a note (staff only)"
                name="message"
                rows={2}
                maxLength={ORDER_NOTE_MAX}
                defaultValue={failure?.intent === 'note' ? (values?.message ?? '') : ''}
                key={result?.ok && result.intent === 'note' ? result.message + order.timeline.length : 'note'}
                error={noteError}
              />
              <Submit intent="note">Add note</Submit>
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
    </AdminPage>
  );
}
