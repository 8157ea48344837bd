import type { CustomerActionResult, CustomerDetail, CustomerRef } from '@app/contracts';
import { formatMoney, orderHref, PAYMENT_STATUS_LABELS } from '@app/contracts/client';
import { KeyRound, MapPin, ShoppingBag, StickyNote, Trash2 } from 'lucide-react';
import { useEffect } from 'react';
import { type AppLoadContext, data, Link, useNavigation } from 'react-router';
import { dashboardRead } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import { Badge } from '../ui/badge';
import { Banner } from '../ui/banner';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DataTable } from '../ui/data-table';
import { AdminEmptyState } from '../ui/empty-state';
import { AdminPage } from '../ui/page-header';
import { PostForm } from '../ui/post-form';
import { TextAreaField } from '../ui/text-field';

/**
 * A customer's page (decision 045), shared by the account route (/customers/{userId}) and the guest
 * route (/customers/guest/{email}): what they spent, their orders, addresses and the staff's notes;
 * an account also gets the password-reset button.
 */

export async function customerLoader(request: Request, context: AppLoadContext, ref: CustomerRef) {
  const customer = await dashboardRead(request, () => context.api.customerPage(ref));
  if (!customer) throw data({ message: 'No such customer in this store.' }, { status: 404 });
  return { customer };
}

export async function customerAction(request: Request, context: AppLoadContext, ref: CustomerRef) {
  return dashboardRead(request, async () => {
    const form = await request.formData();
    const fields: Record<string, string> = {};
    for (const [k, v] of form.entries()) if (typeof v === 'string') fields[k] = v.slice(0, 4000);
    const result = await context.api.customerAction(ref, fields);
    return data({ result, values: fields }, { status: result.ok ? 200 : result.status });
  });
}

const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const day = (iso: string) => DAY.format(new Date(iso));
const STATUS = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ');

export function TypeBadge({ type }: { type: 'account' | 'guest' }) {
  return type === 'account' ? <Badge tone="success">Account</Badge> : <Badge>Guest</Badge>;
}

export function CustomerPage({
  customer: c,
  actionData,
}: {
  customer: CustomerDetail;
  actionData: { result: CustomerActionResult; values: Record<string, string> } | undefined;
}) {
  const result = actionData?.result ?? null;
  useActionToast(result);
  const navigation = useNavigation();
  const pending = (intent: string) => navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  const noteError = result && !result.ok ? result.fieldErrors.note : undefined;
  const failed = result && !result.ok && !noteError ? result.message : null;
  const keptNote = result && !result.ok && actionData?.values.intent === 'note.add' ? actionData.values.note : '';
  const money = (n: number) => formatMoney(n, c.currency);
  // A note saved empties the box (a refused one keeps what was typed, by defaultValue).
  const saved = result?.ok && actionData?.values.intent === 'note.add';
  useEffect(() => {
    const box = saved ? document.getElementById('customer-note') : null;
    if (box instanceof HTMLTextAreaElement) box.value = '';
  }, [saved, result]);

  return (
    <AdminPage
      title={c.name || c.email}
      description={
        <span className="flex flex-wrap items-center gap-2">
          <span className="break-all">{c.email}</span>
          <TypeBadge type={c.type} />
          <span>Customer since {day(c.since)}</span>
        </span>
      }
      primaryAction={
        c.userId ? (
          <PostForm>
            <input type="hidden" name="intent" value="password-reset" />
            <Button type="submit" variant="primary" disabled={pending('password-reset')}>
              <KeyRound aria-hidden className="size-4" />
              {pending('password-reset') ? 'Sending…' : 'Send password reset'}
            </Button>
          </PostForm>
        ) : undefined
      }
    >
      <p className="text-sm">
        <Link to="/manage-store/customers" className="text-neutral-700 underline underline-offset-2">
          ← All customers
        </Link>
      </p>
      {failed && <Banner>{failed}</Banner>}
      {result?.ok && (
        <p role="status" className="sr-only">
          {result.message}
        </p>
      )}

      <Card title="Summary">
        <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm sm:grid-cols-5">
          <Figure label="Lifetime value" value={money(c.lifetimeValue)} />
          <Figure label="Orders" value={c.orderCount.toLocaleString('en-US')} />
          <Figure label="Average order" value={money(c.averageOrder)} />
          <Figure label="First order" value={c.firstOrderAt ? day(c.firstOrderAt) : '—'} />
          <Figure label="Last order" value={c.lastOrderAt ? day(c.lastOrderAt) : '—'} />
        </dl>
        <p className="mt-3 text-xs text-neutral-600">
          Lifetime value is what was paid less what was refunded; the average divides it by the paid orders.
        </p>
      </Card>

      <Card
        title="Orders"
        flush
        aside={
          c.orderCount > c.orders.length ? (
            <span className="text-xs text-neutral-600">
              Newest {c.orders.length} of {c.orderCount}
            </span>
          ) : undefined
        }
      >
        {c.orders.length === 0 ? (
          <AdminEmptyState icon={<ShoppingBag className="size-8" />} title="No orders yet">
            This account has not ordered.
          </AdminEmptyState>
        ) : (
          <DataTable
            label={`Orders of ${c.name || c.email}`}
            rows={c.orders}
            rowKey={(o) => o.orderId}
            minWidth="0"
            columns={[
              {
                header: 'Order',
                className: 'whitespace-nowrap',
                cell: (o) => (
                  <Link to={orderHref(o.orderId)} className="font-medium text-neutral-900 hover:underline">
                    {o.orderId}
                  </Link>
                ),
              },
              {
                header: 'Date',
                className: 'hidden whitespace-nowrap text-neutral-700 sm:table-cell',
                cell: (o) => <time dateTime={o.placedAt}>{day(o.placedAt)}</time>,
              },
              { header: 'Status', className: 'text-neutral-700', cell: (o) => STATUS(o.status) },
              {
                header: 'Payment',
                className: 'hidden text-neutral-700 sm:table-cell',
                cell: (o) => PAYMENT_STATUS_LABELS[o.paymentStatus],
              },
              {
                header: 'Total',
                align: 'end',
                className: 'whitespace-nowrap tabular-nums',
                cell: (o) => (
                  <>
                    {money(o.grandTotal)}
                    {o.refundedAmount > 0 && (
                      <span className="block text-xs text-neutral-600">−{money(o.refundedAmount)} refunded</span>
                    )}
                  </>
                ),
              },
            ]}
          />
        )}
      </Card>

      <div className="grid gap-4 md:grid-cols-2">
        <Card title="Addresses">
          {c.addresses.length === 0 ? (
            <AdminEmptyState icon={<MapPin className="size-8" />} title="No addresses">
              Saved addresses and the addresses of their orders show here.
            </AdminEmptyState>
          ) : (
            <ul className="space-y-3 text-sm">
              {c.addresses.map((a) => (
                <li key={`${a.source}:${a.address1}:${a.postalCode}`}>
                  <address className="not-italic text-neutral-800">
                    {a.toName}
                    <br />
                    {a.address1}
                    {a.address2 ? `, ${a.address2}` : ''}
                    <br />
                    {a.city} {a.postalCode},{' '}
                    {a.stateProvinceGeoId ? `${a.stateProvinceGeoId.replace(/^[A-Z]+_/, '')}, ` : ''}
                    {a.countryGeoId}
                  </address>
                  <span className="text-xs text-neutral-600">
                    {a.source === 'address_book' ? 'Address book' : 'Shipped to in an order'}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>

        <Card title="Notes">
          <PostForm className="space-y-2">
            <input type="hidden" name="intent" value="note.add" />
            <TextAreaField
              id="customer-note"
              label="Add a note"
              name="note"
              rows={3}
              maxLength={2000}
              required
              defaultValue={keptNote}
              error={noteError}
            />
            <Button type="submit" disabled={pending('note.add')}>
              {pending('note.add') ? 'Saving…' : 'Add note'}
            </Button>
          </PostForm>
          {c.notes.length === 0 ? (
            <p className="mt-4 flex items-center gap-2 text-sm text-neutral-600">
              <StickyNote aria-hidden className="size-4" /> No notes yet. Only staff see them.
            </p>
          ) : (
            <ul className="mt-4 divide-y divide-neutral-100">
              {c.notes.map((n) => (
                <li key={n.noteId} className="flex flex-wrap items-start justify-between gap-2 py-2">
                  <div className="min-w-0 text-sm">
                    <p className="whitespace-pre-wrap break-words text-neutral-900">{n.note}</p>
                    <p className="text-xs text-neutral-600">
                      {n.authorName} · <time dateTime={n.createdAt}>{day(n.createdAt)}</time>
                    </p>
                  </div>
                  <ConfirmDialog
                    slim
                    trigger={<Trash2 aria-hidden className="size-4" />}
                    triggerLabel={`Delete note: ${n.note.slice(0, 40)}`}
                    title="Delete this note?"
                    confirm={
                      <PostForm>
                        <input type="hidden" name="intent" value="note.delete" />
                        <input type="hidden" name="noteId" value={n.noteId} />
                        <Button type="submit" variant="critical">
                          Delete note
                        </Button>
                      </PostForm>
                    }
                  >
                    It is gone for every member of staff.
                  </ConfirmDialog>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </AdminPage>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-neutral-600">{label}</dt>
      <dd className="mt-0.5 text-base font-semibold tabular-nums text-neutral-900">{value}</dd>
    </div>
  );
}
