import type { FormOutcome, ReturnField } from '@app/contracts';
import { formatMoney, orderLineVariantText } from '@app/contracts/client';
import { CheckCircle2, FileDown, RotateCcw, Truck } from 'lucide-react';
import { data, Link, redirect } from 'react-router';
import { OrderReturns } from '../../components/order/order-returns';
import { NO_PRODUCT_IMAGE, productHref } from '../../components/product/product-card';
import { PageContainer, PageTitle } from '../../components/ui/page';
import { PostForm } from '../../components/ui/post-form';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/order-index';

export function meta() {
  return [{ title: 'Your order' }, { name: 'robots', content: 'noindex' }];
}

/** One order: for its owner, or for a guest through the signed link of the confirmation and email. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const orderId = url.searchParams.get('orderId');
  if (!orderId) throw redirect('/order/history');
  const key = url.searchParams.get('key');
  const order = await context.api.order(orderId, key);
  if (!order) throw data({ message: 'Order not found' }, { status: 404 });
  if ('retryAfterSeconds' in order) {
    throw data(
      { message: 'Too many attempts. Please wait a few minutes and try again.' },
      { status: 429, headers: { 'Retry-After': String(order.retryAfterSeconds) } },
    );
  }
  const pdfUrl = `/skulocity/api/v1/ecommerce/order/order/pdf?orderId=${encodeURIComponent(order.orderId)}${key ? `&key=${encodeURIComponent(key)}` : ''}`;
  return { order, placed: url.searchParams.has('placed'), pdfUrl, accessKey: key };
}

/** The order page's one form so far: a return request (intent 'return'). */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const text = (name: string, max: number) => String(form.get(name) ?? '').slice(0, max);
  if (text('intent', 20) !== 'return') {
    const unknown: FormOutcome<ReturnField> = {
      ok: false,
      status: 400,
      message: 'Unknown order action.',
      fieldErrors: {},
    };
    return data({ result: unknown }, { status: 400 });
  }
  // One select per returnable line, named qty-<lineNo>.
  const lines: { lineNo: number; quantity: string }[] = [];
  for (const [k, v] of form) {
    const m = /^qty-(\d{1,5})$/.exec(k);
    if (m) lines.push({ lineNo: Number(m[1]), quantity: String(v).slice(0, 10) });
  }
  const result = await context.api.requestReturn({
    orderId: text('orderId', 64),
    key: text('key', 200) || null,
    reason: text('reason', 40),
    note: text('note', 2000),
    lines: lines.slice(0, 100),
  });
  return data({ result }, result.ok ? undefined : { status: result.status });
}

export default function OrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { order, placed, pdfUrl, accessKey } = loaderData;
  const result = actionData?.result;
  useActionToast(result);
  const m = (n: number) => formatMoney(n, order.currency);
  const s = order.shipTo;
  return (
    <PageContainer narrow>
      {placed && (
        <div className="mb-8 flex items-start gap-3 rounded-2xl border border-green-200 bg-green-50 p-5" role="status">
          <CheckCircle2 aria-hidden className="mt-0.5 size-6 shrink-0 text-green-700" />
          <div>
            <p className="font-semibold text-green-900">Thank you! Your order has been placed.</p>
            <p className="text-sm text-green-900">A receipt is on its way to {order.email}.</p>
          </div>
        </div>
      )}
      <PageTitle lead={`Placed ${new Date(order.placedAt).toLocaleDateString('en-US', { dateStyle: 'long' })}`}>
        Order {order.orderId}
      </PageTitle>
      <div className="mb-6 flex flex-wrap items-center gap-3">
        <span className="rounded-full bg-slate-900 px-3 py-1 text-sm font-medium text-white" data-testid="order-status">
          {order.statusLabel}
        </span>
        <a
          href={pdfUrl}
          className="inline-flex items-center gap-1.5 text-sm font-medium text-brand hover:underline"
          data-testid="invoice-link"
        >
          <FileDown aria-hidden className="size-4" />
          Download invoice (PDF)
        </a>
        {/* The owner's own order (a guest's link carries a key): its lines into the cart again. */}
        {!accessKey && (
          <PostForm action="/cart" className="ml-auto">
            <input type="hidden" name="intent" value="reorder" />
            <input type="hidden" name="orderId" value={order.orderId} />
            <button
              type="submit"
              className="inline-flex h-9 items-center gap-1.5 rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-800 hover:bg-slate-50"
              data-testid="buy-again"
            >
              <RotateCcw aria-hidden className="size-4" />
              Buy again
            </button>
          </PostForm>
        )}
      </div>
      {order.shipments.length > 0 && (
        <ul className="mb-6 space-y-2" aria-label="Shipments" data-testid="order-shipments">
          {order.shipments.map((sh) => (
            <li
              key={`${sh.carrierName}-${sh.shippedAt}`}
              className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-xl border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-800"
            >
              <Truck aria-hidden className="size-5 shrink-0 text-slate-600" />
              <span>
                Shipped with {sh.carrierName}
                {sh.trackingNumber && ` · ${sh.trackingNumber}`}
              </span>
              {sh.trackingUrl && (
                <a
                  href={sh.trackingUrl}
                  className="font-medium text-brand underline-offset-4 hover:underline"
                  rel="noopener noreferrer"
                  target="_blank"
                >
                  Track your parcel
                </a>
              )}
              <span className="text-slate-600">
                {new Date(sh.shippedAt).toLocaleDateString('en-US', { dateStyle: 'medium' })}
              </span>
            </li>
          ))}
        </ul>
      )}
      <ul className="divide-y divide-slate-200 border-y border-slate-200" data-testid="order-lines">
        {order.lines.map((l) => {
          // The product page, as product cards link it; a product since removed from the catalog has none.
          const href = l.slug === null ? null : productHref({ slug: l.slug, productId: l.productId });
          const picture = (
            <img
              src={l.imageUrl ?? NO_PRODUCT_IMAGE}
              alt=""
              width={64}
              height={64}
              loading="lazy"
              className="size-full object-cover"
            />
          );
          const thumb = 'block size-16 shrink-0 overflow-hidden rounded-md border border-slate-200 bg-slate-100';
          return (
            <li key={l.lineNo} className="flex items-start gap-4 py-4 text-sm">
              {href ? (
                <Link to={href} tabIndex={-1} aria-hidden className={thumb}>
                  {picture}
                </Link>
              ) : (
                <span className={thumb}>{picture}</span>
              )}
              <span className="min-w-0 flex-1">
                {href ? (
                  <Link to={href} className="font-medium text-slate-900 underline-offset-4 hover:underline">
                    {l.productName}
                  </Link>
                ) : (
                  <span className="font-medium text-slate-900">{l.productName}</span>
                )}
                {l.variantTitle && <span className="block text-slate-600">{orderLineVariantText(l)}</span>}
                {l.optionsText && <span className="block text-slate-600">{l.optionsText}</span>}
                <span className="block text-slate-600">
                  {l.quantity} × {m(l.unitPrice)}
                </span>
              </span>
              <span className="font-medium text-slate-900">{m(l.lineTotal)}</span>
            </li>
          );
        })}
      </ul>
      <dl className="ml-auto mt-4 max-w-xs space-y-1.5 text-sm" data-testid="order-totals">
        <div className="flex justify-between">
          <dt className="text-slate-600">Subtotal</dt>
          <dd>{m(order.subtotal)}</dd>
        </div>
        {order.discount > 0 && (
          <div className="flex justify-between text-green-800">
            <dt>Discount ({order.promoCode})</dt>
            <dd>−{m(order.discount)}</dd>
          </div>
        )}
        <div className="flex justify-between">
          <dt className="text-slate-600">Shipping ({order.shippingMethod})</dt>
          <dd>{order.shipping === 0 ? 'Free' : m(order.shipping)}</dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-slate-600">{order.taxIncluded ? 'Including tax' : 'Tax'}</dt>
          <dd>{m(order.tax)}</dd>
        </div>
        <div className="flex justify-between border-t border-slate-200 pt-2 text-base font-semibold">
          <dt>Total</dt>
          <dd data-testid="order-total">{m(order.total)}</dd>
        </div>
        {order.refunds.map((r) => (
          <div
            key={`${r.at}-${r.amount}`}
            className="flex justify-between gap-3 text-slate-700"
            data-testid="order-refund"
          >
            <dt>
              Refunded {new Date(r.at).toLocaleDateString('en-US', { dateStyle: 'medium' })}
              {r.reason && <span className="block text-xs text-slate-600">{r.reason}</span>}
              {r.taxAmount > 0 && <span className="block text-xs text-slate-600">Including {m(r.taxAmount)} tax</span>}
            </dt>
            <dd>−{m(r.amount)}</dd>
          </div>
        ))}
        {order.refundedTotal > 0 && (
          <div className="flex justify-between border-t border-slate-200 pt-2 font-semibold">
            <dt>Net paid</dt>
            <dd data-testid="order-net">{m(order.total - order.refundedTotal)}</dd>
          </div>
        )}
      </dl>
      <div className="mt-10 grid gap-6 sm:grid-cols-2">
        <section aria-labelledby="ships-to-heading">
          <h2 id="ships-to-heading" className="mb-2 font-semibold text-slate-900">
            Ships to
          </h2>
          <address className="text-sm not-italic text-slate-700">
            {s.toName}
            <br />
            {s.address1}
            {s.address2 && (
              <>
                <br />
                {s.address2}
              </>
            )}
            <br />
            {s.regionName ? `${s.city}, ${s.regionName} ${s.postalCode}` : `${s.city} ${s.postalCode}`}
            <br />
            {s.countryName}
          </address>
        </section>
        <section>
          <h2 className="mb-2 font-semibold text-slate-900">Payment</h2>
          <p className="text-sm text-slate-700">{order.payment}</p>
          <h2 className="mb-2 mt-4 font-semibold text-slate-900">History</h2>
          {/* Status changes and the store's steps the shopper may see (shipments, refunds, returns), in order. */}
          <ol className="space-y-1 text-sm text-slate-700" data-testid="order-history">
            {[
              ...order.history.map((h) => ({ key: `s-${h.status}-${h.at}`, at: h.at, text: h.note ?? h.status })),
              ...order.events.map((e, i) => ({ key: `e-${i}-${e.at}`, at: e.at, text: e.message })),
            ]
              .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
              .map((h) => (
                <li key={h.key}>
                  {new Date(h.at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}: {h.text}
                </li>
              ))}
          </ol>
        </section>
      </div>
      <OrderReturns order={order} accessKey={accessKey} failure={result && !result.ok ? result : null} />
      <p className="mt-10">
        <Link to="/" className="text-sm font-medium text-brand hover:underline">
          Continue shopping
        </Link>
      </p>
    </PageContainer>
  );
}
