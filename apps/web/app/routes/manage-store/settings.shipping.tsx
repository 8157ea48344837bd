import type {
  Country,
  ShippingActionResult,
  ShippingMethodView,
  ShippingPreview,
  ShippingZoneView,
} from '@app/contracts';
import { decimalAmount, formatMoney } from '@app/contracts/client';
import { Truck } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { data, Link, redirect, useNavigation, useSearchParams } from 'react-router';
import { DraftBar, StartDraftBar } from '../../components/manage-store/draft-bar';
import { Banner } from '../../components/ui/banner';
import { Button, ButtonLink } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { DataTable } from '../../components/ui/data-table';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { FormAlert } from '../../components/ui/form-field';
import { MoneyField } from '../../components/ui/money-field';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { SelectField } from '../../components/ui/select-field';
import { NumberField, TextAreaField, TextField } from '../../components/ui/text-field';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/settings.shipping';

const PAGE = '/manage-store/settings/shipping';
const DONE: Record<string, string> = {
  'zone-saved': 'Zone saved.',
  'zone-deleted': 'Zone deleted.',
  'method-saved': 'Method saved.',
  'method-deleted': 'Method deleted.',
  'draft-started': 'Draft started. Shoppers see your changes only once you publish them.',
  published: 'Shipping published. Shoppers pay the new rates now.',
  discarded: 'Draft discarded. Shoppers keep paying the live rates.',
};
const DONE_OF: Record<string, string> = {
  saveZone: 'zone-saved',
  deleteZone: 'zone-deleted',
  saveMethod: 'method-saved',
  deleteMethod: 'method-deleted',
  startDraft: 'draft-started',
  'draft-publish': 'published',
  'draft-discard': 'discarded',
};

export async function loader({ context, request }: Route.LoaderArgs) {
  const page = await dashboardRead(request, () => context.api.shippingSettingsPage());
  return { ...page, done: new URL(request.url).searchParams.get('done') ?? '' };
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Shipping');
}

type Values = Record<string, string>;
type Answer = { result: ShippingActionResult; values: Values };

export async function action({ context, request }: Route.ActionArgs) {
  return dashboardRead(request, async () => {
    const form = await request.formData();
    const values: Values = {};
    for (const [k, v] of form) if (typeof v === 'string' && k !== '_csrf') values[k] = v;
    const result = await context.api.shippingAction(values);
    const done = DONE_OF[values.intent ?? ''];
    if (result.ok && done) throw redirect(`${PAGE}?done=${done}`);
    return data<Answer>({ result, values }, { status: result.ok ? 200 : result.status });
  });
}

const KIND_LABELS: Record<ShippingMethodView['kind'], string> = {
  flat: 'Flat rate',
  weight: 'By weight',
  subtotal: 'By order subtotal',
  pickup: 'Local pickup',
};

/** The rate as the owner reads it: "$6.95", "$4.50 to $16.50 by weight", "Free". */
function rateSummary(m: ShippingMethodView, currency: string) {
  const money = (n: number) => (n === 0 ? 'Free' : formatMoney(n, currency));
  if (m.kind === 'pickup') return 'Free';
  if (m.kind === 'flat') return money(m.flatRate);
  const rates = m.bands.map((b) => b.rate);
  const low = Math.min(...rates);
  const high = Math.max(...rates);
  return low === high ? money(low) : `${money(low)} to ${money(high)}`;
}

function bandsSummary(m: ShippingMethodView, currency: string) {
  if (m.kind !== 'weight' && m.kind !== 'subtotal') return null;
  const unit = (n: number) => (m.kind === 'weight' ? `${n.toLocaleString('en-US')} g` : formatMoney(n, currency));
  return m.bands.map((b) => `up to ${unit(b.upTo)}: ${formatMoney(b.rate, currency)}`).join('; ');
}

/** A method's rate, its kind and its bands: in the Rate column, and under the method on a phone. */
function MethodRate({ method: m, currency }: { method: ShippingMethodView; currency: string }) {
  const bands = bandsSummary(m, currency);
  return (
    <div>
      <div>{rateSummary(m, currency)}</div>
      <div className="text-xs text-neutral-600">{KIND_LABELS[m.kind]}</div>
      {bands && <div className="text-xs text-neutral-600">{bands}</div>}
    </div>
  );
}

/** "6.95" per band line, as the method form reads them back. */
const bandsText = (m: ShippingMethodView | undefined, currency: string) =>
  (m?.bands ?? []).map((b) => `${b.upTo} ${decimalAmount(b.rate, currency)}`).join('\n');

function placesOf(zone: ShippingZoneView, countries: Country[]) {
  if (zone.restOfWorld) return 'Every country no other zone names';
  const name = (id: string) => countries.find((c) => c.geoId === id)?.name ?? id;
  const region = (id: string) => countries.flatMap((c) => c.regions).find((r) => r.geoId === id)?.name ?? id;
  const places = zone.countries.map(name).join(', ');
  return zone.states.length > 0 ? `${places}: only ${zone.states.map(region).join(', ')}` : places;
}

/** Settings, Shipping: where the store ships and what each way costs, with a preview of a shopper's rates. */
export default function ShippingSettingsPage({ loaderData: page, actionData }: Route.ComponentProps) {
  const answer = actionData as Answer | undefined;
  const failure = answer && !answer.result.ok ? answer.result : null;
  const [params, setParams] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const doneMessage = DONE[page.done];
  // The preview answers in its own card; the saves (redirected here with ?done=) say so in a toast.
  const toast = useMemo(() => (doneMessage ? { ok: true, message: doneMessage } : null), [doneMessage]);
  useActionToast(toast);
  useEffect(() => {
    if (params.get('done')) setParams({}, { replace: true, preventScrollReset: true });
  }, [params, setParams]);
  const editZone = params.get('zone');
  const editMethod = params.get('method');
  const zone = page.zones.find((z) => z.zoneId === editZone);
  const method = zone?.methods.find((m) => m.methodId === editMethod);
  const failedIntent = failure ? answer?.values.intent : null;

  return (
    <AdminPage
      title="Shipping"
      description="Where you ship and what each way costs. Shoppers see the methods of the most specific zone that holds their address: a state before its country, a country before the rest of the world."
      primaryAction={
        <ButtonLink variant="primary" to="?zone=new">
          Add zone
        </ButtonLink>
      }
    >
      {page.status.draft ? (
        <DraftBar
          status={page.status}
          what="shipping rates"
          title="Draft — not live yet"
          storefrontPreview={false}
          result={failedIntent === 'draft-publish' && failure ? failure : null}
        />
      ) : (
        <StartDraftBar status={page.status} busy={busy} />
      )}
      {failure &&
        failedIntent !== 'saveZone' &&
        failedIntent !== 'saveMethod' &&
        failedIntent !== 'preview' &&
        failedIntent !== 'draft-publish' && <Banner>{failure.message}</Banner>}
      {editZone && !editMethod && (editZone === 'new' || zone) && (
        <ZoneForm
          zone={zone}
          countries={page.countries}
          values={failedIntent === 'saveZone' ? answer?.values : undefined}
          failure={failedIntent === 'saveZone' ? failure : null}
          busy={busy}
        />
      )}
      {zone && editMethod && (editMethod === 'new' || method) && (
        <MethodForm
          zone={zone}
          method={method}
          currency={page.currency}
          values={failedIntent === 'saveMethod' ? answer?.values : undefined}
          failure={failedIntent === 'saveMethod' ? failure : null}
          busy={busy}
        />
      )}
      {page.zones.length === 0 ? (
        <Card>
          <AdminEmptyState
            icon={<Truck className="size-6" />}
            title="No shipping zones"
            action={
              <ButtonLink variant="primary" to="?zone=new">
                Add zone
              </ButtonLink>
            }
          >
            Shoppers cannot check out until you ship somewhere. Add a zone (countries, or states within them) and the
            ways you deliver there.
          </AdminEmptyState>
        </Card>
      ) : (
        page.zones.map((z) => <ZoneCard key={z.zoneId} zone={z} countries={page.countries} currency={page.currency} />)
      )}
      <Preview
        countries={page.countries}
        currency={page.currency}
        drafting={page.status.draft !== null}
        answer={answer?.values.intent === 'preview' ? answer : undefined}
        busy={busy}
      />
    </AdminPage>
  );
}

function ZoneCard({ zone, countries, currency }: { zone: ShippingZoneView; countries: Country[]; currency: string }) {
  return (
    <Card
      title={zone.name}
      id={`zone-${zone.zoneId}`}
      description={placesOf(zone, countries)}
      flush
      aside={
        <div className="flex flex-wrap items-center gap-2">
          <ButtonLink slim to={`?zone=${encodeURIComponent(zone.zoneId)}`} aria-label={`Edit zone ${zone.name}`}>
            Edit
          </ButtonLink>
          <ButtonLink
            slim
            to={`?zone=${encodeURIComponent(zone.zoneId)}&method=new`}
            aria-label={`Add method to ${zone.name}`}
          >
            Add method
          </ButtonLink>
          <ConfirmDialog
            slim
            trigger="Delete"
            triggerLabel={`Delete zone ${zone.name}`}
            title={`Delete ${zone.name}?`}
            confirm={
              <PostForm>
                <input type="hidden" name="intent" value="deleteZone" />
                <input type="hidden" name="zoneId" value={zone.zoneId} />
                <Button type="submit" variant="critical">
                  Delete zone
                </Button>
              </PostForm>
            }
          >
            Its {zone.methods.length === 1 ? 'method goes' : `${zone.methods.length} methods go`} with it. Orders
            already placed keep what they were charged.
          </ConfirmDialog>
        </div>
      }
    >
      {zone.methods.length === 0 ? (
        <p className="px-4 py-3 text-sm text-neutral-600">
          No methods yet: shoppers here cannot check out.{' '}
          <Link to={`?zone=${encodeURIComponent(zone.zoneId)}&method=new`} className="font-medium underline">
            Add a method
          </Link>
        </p>
      ) : (
        <DataTable
          label={`Methods of ${zone.name}`}
          rows={zone.methods}
          rowKey={(m) => m.methodId}
          // On a phone the rate, the free-from amount and the handling fold in under the method, so its
          // Edit and Delete stay in view beside it.
          minWidth="0"
          columns={[
            {
              header: 'Method',
              rowHeader: true,
              cell: (m) => (
                <div>
                  <div className="font-medium text-neutral-900">{m.name}</div>
                  <div className="text-xs text-neutral-600">{m.description}</div>
                  <div className="mt-1 sm:hidden">
                    <MethodRate method={m} currency={currency} />
                    <div className="text-xs text-neutral-600">
                      {m.freeAbove !== null && `Free from ${formatMoney(m.freeAbove, currency)} · `}
                      Handling {m.handlingDays === 0 ? 'same day' : `${m.handlingDays} d`}
                    </div>
                  </div>
                </div>
              ),
            },
            {
              header: 'Rate',
              className: 'hidden sm:table-cell',
              cell: (m) => <MethodRate method={m} currency={currency} />,
            },
            {
              header: 'Free from',
              cell: (m) => (m.freeAbove === null ? '—' : formatMoney(m.freeAbove, currency)),
              align: 'end',
              className: 'hidden sm:table-cell',
            },
            {
              header: 'Handling',
              cell: (m) => (m.handlingDays === 0 ? 'Same day' : `${m.handlingDays} d`),
              align: 'end',
              className: 'hidden sm:table-cell',
            },
            {
              header: <span className="sr-only">Actions</span>,
              align: 'end',
              cell: (m) => (
                <div className="flex justify-end gap-2">
                  <ButtonLink
                    slim
                    variant="plain"
                    to={`?zone=${encodeURIComponent(zone.zoneId)}&method=${encodeURIComponent(m.methodId)}`}
                    aria-label={`Edit ${m.name}`}
                  >
                    Edit
                  </ButtonLink>
                  <ConfirmDialog
                    slim
                    trigger="Delete"
                    triggerLabel={`Delete ${m.name}`}
                    title={`Delete ${m.name}?`}
                    confirm={
                      <PostForm>
                        <input type="hidden" name="intent" value="deleteMethod" />
                        <input type="hidden" name="zoneId" value={zone.zoneId} />
                        <input type="hidden" name="methodId" value={m.methodId} />
                        <Button type="submit" variant="critical">
                          Delete method
                        </Button>
                      </PostForm>
                    }
                  >
                    Shoppers in {zone.name} no longer see it.
                  </ConfirmDialog>
                </div>
              ),
            },
          ]}
        />
      )}
    </Card>
  );
}

type Failure = Extract<ShippingActionResult, { ok: false }> | null;

function ZoneForm({
  zone,
  countries,
  values,
  failure,
  busy,
}: {
  zone: ShippingZoneView | undefined;
  countries: Country[];
  values: Values | undefined;
  failure: Failure;
  busy: boolean;
}) {
  const e = failure?.fieldErrors ?? {};
  return (
    <Card title={zone ? `Edit zone ${zone.name}` : 'Add zone'} id="zone-form">
      <PostForm className="kit-stack">
        <FormAlert message={failure?.message} />
        <input type="hidden" name="intent" value="saveZone" />
        {zone && <input type="hidden" name="zoneId" value={zone.zoneId} />}
        <TextField
          label="Zone name"
          name="name"
          required
          maxLength={80}
          defaultValue={values?.name ?? zone?.name ?? ''}
          error={e.name}
          check={(v) => (v.trim() ? null : 'Enter a name')}
        />
        <TextField
          label="Countries"
          name="countries"
          hint="Country codes, separated by commas: USA, CAN. Leave empty for the rest of the world."
          defaultValue={values?.countries ?? zone?.countries.join(', ') ?? ''}
          error={e.countries}
          list="shipping-countries"
          autoComplete="off"
        />
        <datalist id="shipping-countries">
          {countries.map((c) => (
            <option key={c.geoId} value={c.geoId}>
              {c.name}
            </option>
          ))}
        </datalist>
        <TextField
          label="Only these states or provinces (optional)"
          name="states"
          hint="Codes like US_CA, US_OR: the zone then holds only these of their country."
          defaultValue={values?.states ?? zone?.states.join(', ') ?? ''}
          error={e.states}
          autoComplete="off"
        />
        <Checkbox
          label="Rest of the world"
          name="restOfWorld"
          hint="Every country no other zone names."
          defaultChecked={values ? values.restOfWorld === 'on' : (zone?.restOfWorld ?? false)}
          error={e.restOfWorld ?? e.zones}
        />
        <div className="flex gap-2">
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save zone'}
          </Button>
          <ButtonLink to={PAGE}>Cancel</ButtonLink>
        </div>
      </PostForm>
    </Card>
  );
}

function MethodForm({
  zone,
  method,
  currency,
  values,
  failure,
  busy,
}: {
  zone: ShippingZoneView;
  method: ShippingMethodView | undefined;
  currency: string;
  values: Values | undefined;
  failure: Failure;
  busy: boolean;
}) {
  const e = failure?.fieldErrors ?? {};
  const v = (k: string, fallback: string) => values?.[k] ?? fallback;
  return (
    <Card title={method ? `Edit ${method.name}` : `Add method to ${zone.name}`} id="method-form">
      <PostForm className="kit-stack">
        <FormAlert message={failure?.message} />
        <input type="hidden" name="intent" value="saveMethod" />
        <input type="hidden" name="zoneId" value={zone.zoneId} />
        {method && <input type="hidden" name="methodId" value={method.methodId} />}
        <TextField
          label="Method name"
          name="name"
          required
          maxLength={80}
          defaultValue={v('name', method?.name ?? '')}
          error={e.name}
          check={(x) => (x.trim() ? null : 'Enter a name')}
        />
        <TextField
          label="Delivery estimate or pickup details"
          name="description"
          maxLength={300}
          hint="Shown at checkout: “3 to 5 business days”, or for pickup the address and hours."
          defaultValue={v('description', method?.description ?? '')}
          error={e.description}
        />
        <SelectField
          label="Rate"
          name="kind"
          defaultValue={v('kind', method?.kind ?? 'flat')}
          options={Object.entries(KIND_LABELS).map(([value, label]) => ({ value, label }))}
          error={e.kind}
        />
        <MoneyField
          label="Flat rate"
          name="flatRate"
          currency={currency}
          cents={method?.kind === 'flat' ? method.flatRate : null}
          {...(values ? { text: values.flatRate ?? '' } : {})}
          hint="For a flat rate."
          error={e.flatRate}
        />
        <TextAreaField
          label="Bands"
          name="bands"
          rows={4}
          hint="For a rate by weight or subtotal: one band a line, the upper limit (grams, or the subtotal) and the rate, like “2000 6.95”. Ascending; the last band covers everything above."
          defaultValue={v('bands', bandsText(method, currency))}
          error={e.bands}
        />
        <MoneyField
          label="Free from (optional)"
          name="freeAbove"
          currency={currency}
          cents={method?.freeAbove ?? null}
          {...(values ? { text: values.freeAbove ?? '' } : {})}
          hint="Free once the order’s subtotal after discounts reaches this."
          error={e.freeAbove}
        />
        <NumberField
          label="Handling time (business days)"
          name="handlingDays"
          defaultValue={v('handlingDays', String(method?.handlingDays ?? 0))}
          error={e.handlingDays}
        />
        <div className="flex gap-2">
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save method'}
          </Button>
          <ButtonLink to={PAGE}>Cancel</ButtonLink>
        </div>
      </PostForm>
    </Card>
  );
}

/** The rates a shopper would see, in a table; the draft's beside the live ones while there is a draft. */
function RatesTable({
  label,
  priced,
  currency,
}: {
  label: string;
  priced: Pick<ShippingPreview, 'zone' | 'rates'>;
  currency: string;
}) {
  if (priced.rates.length === 0)
    return <p className="text-sm text-neutral-700">No zone ships there: shoppers cannot check out.</p>;
  return (
    <DataTable
      label={label}
      rows={priced.rates}
      rowKey={(r) => r.methodId}
      minWidth="24rem"
      focusable
      columns={[
        { header: 'Method', rowHeader: true, cell: (r) => r.name },
        // What checkout prints under the method, so the owner sees the handling days reach shoppers.
        { header: 'Delivery', cell: (r) => r.delivery ?? '—' },
        {
          header: 'Rate',
          align: 'end',
          cell: (r) => (r.rate === 0 ? 'Free' : formatMoney(r.rate, currency)),
        },
      ]}
    />
  );
}

function Preview({
  countries,
  currency,
  answer,
  busy,
  drafting,
}: {
  countries: Country[];
  currency: string;
  answer: Answer | undefined;
  busy: boolean;
  drafting: boolean;
}) {
  const result = answer?.result;
  const e = result && !result.ok ? result.fieldErrors : {};
  const preview = result?.ok ? result.preview : undefined;
  const values = answer?.values;
  return (
    <Card
      title="What would a shopper pay?"
      description={
        drafting
          ? 'The rates checkout lists for a cart and an address now, and once the draft is published.'
          : 'The rates checkout lists for a cart and an address.'
      }
    >
      <PostForm className="grid gap-3 sm:grid-cols-2">
        <input type="hidden" name="intent" value="preview" />
        <MoneyField
          label="Subtotal after discounts"
          name="subtotal"
          currency={currency}
          required
          {...(values ? { text: values.subtotal ?? '' } : { cents: 5000 })}
          error={e.subtotal}
        />
        <NumberField
          label="Weight (grams)"
          name="weightGrams"
          defaultValue={values?.weightGrams ?? '1000'}
          error={e.weightGrams}
        />
        <SelectField
          label="Country"
          name="countryGeoId"
          defaultValue={values?.countryGeoId ?? 'USA'}
          options={countries.map((c) => ({ value: c.geoId, label: c.name }))}
          error={e.countryGeoId}
        />
        <SelectField
          label="State or province"
          name="stateProvinceGeoId"
          defaultValue={values?.stateProvinceGeoId ?? ''}
          options={[
            { value: '', label: 'None' },
            ...countries.flatMap((c) => c.regions.map((r) => ({ value: r.geoId, label: r.name, group: c.name }))),
          ]}
          error={e.stateProvinceGeoId}
        />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={busy}>
            Show rates
          </Button>
        </div>
      </PostForm>
      {result && (
        <div className="mt-4" role="status">
          {preview?.draft ? (
            <div className="grid gap-4 md:grid-cols-2">
              <section aria-label="Live rates">
                <h3 className="mb-2 text-sm font-semibold text-neutral-900">
                  Now{preview.zone ? ` · ${preview.zone.name}` : ''}
                </h3>
                <RatesTable label="Rates shoppers see now" priced={preview} currency={currency} />
              </section>
              <section aria-label="Draft rates">
                <h3 className="mb-2 text-sm font-semibold text-neutral-900">
                  Once published{preview.draft.zone ? ` · ${preview.draft.zone.name}` : ''}
                </h3>
                <RatesTable label="Rates once the draft is published" priced={preview.draft} currency={currency} />
              </section>
            </div>
          ) : preview ? (
            <>
              {preview.rates.length > 0 && <p className="mb-2 text-sm text-neutral-700">{result.message}</p>}
              <RatesTable label="Rates a shopper would see" priced={preview} currency={currency} />
            </>
          ) : null}
        </div>
      )}
    </Card>
  );
}
