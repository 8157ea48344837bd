import type { Country, TaxFormField, TaxFormResult, TaxRate } from '@app/contracts';
import { basisPointsPercent } from '@app/contracts/client';
import { Pencil, Percent, Plus, Trash2 } from 'lucide-react';
import { data, Link, useNavigation, useSearchParams } from 'react-router';
import { DraftBar, StartDraftBar } from '../../components/manage-store/draft-bar';
import { Banner } from '../../components/ui/banner';
import { Button, buttonClass } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { ChoiceList } from '../../components/ui/choice-list';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { DataTable } from '../../components/ui/data-table';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { SelectField, type SelectOption } from '../../components/ui/select-field';
import { TextField } from '../../components/ui/text-field';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/settings.tax';

const FORM_FIELDS = [
  'intent',
  'pricesIncludeTax',
  'taxNumber',
  'place',
  'rateId',
  'label',
  'rateBasisPoints',
  'reducedBasisPoints',
  'taxShipping',
  'seen',
] as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, () => context.api.taxSettingsPage());
}

/**
 * One action, switching on the form's intent: settings, add-rate, change-rate, remove-rate (to the
 * draft while there is one), startDraft, draft-publish, draft-discard.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const values: Record<string, string> = {};
  for (const key of FORM_FIELDS) values[key] = String(form.get(key) ?? '').slice(0, 200);
  const result: TaxFormResult = await context.api.taxAction(values);
  return data(
    { intent: values.intent ?? '', rateId: values.rateId ?? '', result, values },
    {
      status: result.ok ? 200 : result.status,
    },
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Taxes');
}

type Answer = Route.ComponentProps['actionData'];

/** The answer's refusal when it was for this form (intent and rate), else nothing. */
function failureOf(answer: Answer, intent: string, rateId = '') {
  if (!answer || answer.result.ok || answer.intent !== intent || answer.rateId !== rateId) return null;
  return answer.result;
}
const fieldError = (f: ReturnType<typeof failureOf>, field: TaxFormField) => f?.fieldErrors[field];

function usePending(intent: string) {
  const navigation = useNavigation();
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
}

/** Taxes (decision 116): how prices are entered, the tax number on invoices, and the rates by place. */
export default function TaxesPage({ loaderData: page, actionData }: Route.ComponentProps) {
  useActionToast(actionData?.result);
  const [params] = useSearchParams();
  const editing = page.rates.find((r) => r.rateId === params.get('edit')) ?? null;
  // A saved change closes its form; a refused one keeps it open with its messages.
  const editDone = actionData?.intent === 'change-rate' && actionData.result.ok;
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const publishFailed = failureOf(actionData, 'draft-publish');
  const draftFailed = failureOf(actionData, 'startDraft') ?? failureOf(actionData, 'draft-discard');
  return (
    <AdminPage
      title="Taxes"
      description="How your prices hold tax, the number on your invoices, and what each place pays."
    >
      {/* Apply at once stays the default, as Shopify's tax settings; a draft gathers changes (decision 120). */}
      {page.status.draft ? (
        <DraftBar
          status={page.status}
          what="tax setup"
          title="Draft — not live yet"
          storefrontPreview={false}
          result={publishFailed}
        />
      ) : (
        <StartDraftBar status={page.status} busy={busy} />
      )}
      {draftFailed && <Banner>{draftFailed.message}</Banner>}
      {/* Keyed by what it shows, so a publish or discard puts the form back to the settings in force. */}
      <SettingsCard key={JSON.stringify(page.settings)} page={page} answer={actionData} />
      <RatesCard rates={page.rates} />
      {editing && !editDone && <EditRate key={editing.rateId} rate={editing} answer={actionData} />}
      <AddRate countries={page.countries} rates={page.rates} answer={actionData} />
    </AdminPage>
  );
}

function SettingsCard({ page, answer }: { page: Route.ComponentProps['loaderData']; answer: Answer }) {
  const f = failureOf(answer, 'settings');
  const pending = usePending('settings');
  const sent = f ? answer?.values : null;
  return (
    <Card title="Prices and invoices">
      <PostForm className="space-y-4" aria-label="Tax settings" preventScrollReset>
        <input type="hidden" name="intent" value="settings" />
        {f && <Banner>{f.message}</Banner>}
        <ChoiceList
          title="Prices in your catalog are entered"
          name="pricesIncludeTax"
          defaultValue={sent ? sent.pricesIncludeTax : page.settings.pricesIncludeTax ? 'with' : 'without'}
          error={fieldError(f, 'pricesIncludeTax')}
          choices={[
            { value: 'without', label: 'Without tax: tax is added at checkout' },
            { value: 'with', label: 'With tax included: shoppers pay the price they see' },
          ]}
          hint="Orders already placed keep their totals."
        />
        <TextField
          label="Tax registration number"
          name="taxNumber"
          autoComplete="off"
          maxLength={40}
          defaultValue={sent ? sent.taxNumber : page.settings.taxNumber}
          error={fieldError(f, 'taxNumber')}
          hint="Printed on your invoices. Leave empty if you have none."
        />
        <Button type="submit" variant="primary" disabled={pending}>
          {pending ? 'Saving…' : 'Save'}
        </Button>
      </PostForm>
    </Card>
  );
}

const percentText = (bp: number | null) => (bp === null ? '' : `${basisPointsPercent(bp)} %`);

function RatesCard({ rates }: { rates: TaxRate[] }) {
  return (
    <Card title="Tax rates" flush>
      {rates.length === 0 ? (
        <AdminEmptyState icon={<Percent className="size-6" />} title="No tax rates">
          Shoppers pay no tax anywhere. Add a rate below for each country or state where you collect tax.
        </AdminEmptyState>
      ) : (
        <DataTable
          label="Tax rates"
          rows={rates}
          rowKey={(r) => r.rateId}
          testId={(r) => `tax-rate-${r.rateId}`}
          // On a phone the name, the reduced rate and shipping fold in under the place, and Edit is its
          // icon: the standard rate and the actions stay in view beside the place.
          minWidth="0"
          columns={[
            {
              header: 'Place',
              rowHeader: true,
              cell: (r) => (
                <>
                  {r.placeName}
                  <span className="block text-xs text-neutral-600 sm:hidden">
                    {r.label} · reduced{' '}
                    {r.reducedBasisPoints === null ? 'as standard' : percentText(r.reducedBasisPoints)} · shipping{' '}
                    {r.taxShipping ? 'taxed' : 'not taxed'}
                  </span>
                </>
              ),
            },
            { header: 'Name', cell: (r) => r.label, className: 'hidden sm:table-cell' },
            { header: 'Standard', cell: (r) => percentText(r.rateBasisPoints), align: 'end' },
            {
              header: 'Reduced',
              cell: (r) => (r.reducedBasisPoints === null ? 'As standard' : percentText(r.reducedBasisPoints)),
              align: 'end',
              className: 'hidden sm:table-cell',
            },
            {
              header: 'Shipping',
              cell: (r) => (r.taxShipping ? 'Taxed' : 'Not taxed'),
              className: 'hidden sm:table-cell',
            },
            {
              header: <span className="sr-only">Actions</span>,
              align: 'end',
              cell: (r) => (
                <div className="flex justify-end gap-2">
                  <Link
                    to={`?edit=${encodeURIComponent(r.rateId)}#edit-rate`}
                    preventScrollReset
                    className={buttonClass('secondary', true)}
                    aria-label={`Edit the rate for ${r.placeName}`}
                  >
                    <Pencil aria-hidden className="size-4" />
                    <span className="hidden sm:inline">Edit</span>
                  </Link>
                  <ConfirmDialog
                    slim
                    trigger={<Trash2 aria-hidden className="size-4" />}
                    triggerLabel={`Remove the rate for ${r.placeName}`}
                    title={`Remove the rate for ${r.placeName}?`}
                    confirm={
                      <PostForm preventScrollReset>
                        <input type="hidden" name="intent" value="remove-rate" />
                        <input type="hidden" name="rateId" value={r.rateId} />
                        <Button type="submit" variant="critical">
                          Remove rate
                        </Button>
                      </PostForm>
                    }
                  >
                    {r.regionGeoId
                      ? 'Shoppers there pay the country’s rate, or no tax when it has none.'
                      : 'Shoppers in regions without a rate of their own pay no tax.'}
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

/** The fields of a rate, shared by the add and edit forms. */
function RateFields({
  prefix,
  rate,
  f,
  sent,
}: {
  prefix: string;
  rate: Partial<TaxRate> | null;
  f: ReturnType<typeof failureOf>;
  sent: Record<string, string> | null;
}) {
  const pct = (bp: number | null | undefined) => (bp === null || bp === undefined ? '' : basisPointsPercent(bp));
  return (
    <>
      <TextField
        id={`${prefix}-label`}
        label="Name on receipts"
        name="label"
        maxLength={60}
        placeholder="Sales tax"
        defaultValue={sent ? sent.label : (rate?.label ?? '')}
        error={fieldError(f, 'label')}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          id={`${prefix}-rate`}
          label="Standard rate (%)"
          name="rateBasisPoints"
          inputMode="decimal"
          autoComplete="off"
          placeholder="7.25"
          defaultValue={sent ? sent.rateBasisPoints : pct(rate?.rateBasisPoints)}
          error={fieldError(f, 'rateBasisPoints')}
        />
        <TextField
          id={`${prefix}-reduced`}
          label="Reduced rate (%)"
          name="reducedBasisPoints"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={sent ? sent.reducedBasisPoints : pct(rate?.reducedBasisPoints)}
          error={fieldError(f, 'reducedBasisPoints')}
          hint="For products in the reduced class. Empty: they pay the standard rate."
        />
      </div>
      <Checkbox
        id={`${prefix}-shipping`}
        name="taxShipping"
        label="Charge tax on shipping too (at the standard rate)"
        defaultChecked={sent ? sent.taxShipping === 'on' : (rate?.taxShipping ?? false)}
        error={fieldError(f, 'taxShipping')}
      />
    </>
  );
}

function EditRate({ rate, answer }: { rate: TaxRate; answer: Answer }) {
  const f = failureOf(answer, 'change-rate', rate.rateId);
  const pending = usePending('change-rate');
  return (
    <Card title={`Edit the rate for ${rate.placeName}`}>
      <PostForm
        id="edit-rate"
        className="space-y-3"
        aria-label={`Edit the rate for ${rate.placeName}`}
        preventScrollReset
      >
        <input type="hidden" name="intent" value="change-rate" />
        <input type="hidden" name="rateId" value={rate.rateId} />
        {f && <Banner>{f.message}</Banner>}
        <RateFields prefix="edit" rate={rate} f={f} sent={f ? (answer?.values ?? null) : null} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={pending}>
            {pending ? 'Saving…' : 'Save rate'}
          </Button>
          <Link to="." preventScrollReset className={buttonClass('secondary')}>
            Cancel
          </Link>
        </div>
      </PostForm>
    </Card>
  );
}

/** Every country and region, a country's own rate first; places that have a rate are left out. */
function placeOptions(countries: Country[], rates: TaxRate[]): SelectOption[] {
  const taken = new Set(rates.map((r) => r.rateId));
  const options: SelectOption[] = [{ value: '', label: 'Choose a place…', disabled: true }];
  for (const c of countries) {
    const places = [
      { value: c.geoId, label: `${c.name} (all regions)` },
      ...c.regions.map((r) => ({ value: `${c.geoId}.${r.geoId}`, label: `${r.name}, ${c.name}` })),
    ];
    for (const p of places) if (!taken.has(p.value)) options.push({ ...p, group: c.name });
  }
  return options;
}

function AddRate({ countries, rates, answer }: { countries: Country[]; rates: TaxRate[]; answer: Answer }) {
  const f = failureOf(answer, 'add-rate');
  const pending = usePending('add-rate');
  const sent = f ? (answer?.values ?? null) : null;
  return (
    <Card title="Add a rate">
      <PostForm className="space-y-3" aria-label="Add a tax rate" preventScrollReset>
        <input type="hidden" name="intent" value="add-rate" />
        {f && <Banner>{f.message}</Banner>}
        <SelectField
          id="add-place"
          label="Place"
          name="place"
          required
          defaultValue={sent?.place ?? ''}
          options={placeOptions(countries, rates)}
          error={fieldError(f, 'countryGeoId') ?? fieldError(f, 'regionGeoId')}
          hint="A state’s or province’s own rate wins over its country’s."
        />
        <RateFields prefix="add" rate={null} f={f} sent={sent} />
        <Button type="submit" disabled={pending}>
          <Plus aria-hidden className="size-4" />
          {pending ? 'Adding…' : 'Add rate'}
        </Button>
      </PostForm>
    </Card>
  );
}
