import type { Carrier, CarrierAccount, CarrierField, CarrierFormResult } from '@app/contracts';
import { PackageSearch, Unplug } from 'lucide-react';
import { useEffect, useState } from 'react';
import { data, useNavigation } from 'react-router';
import { Badge } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { MoneyField } from '../../components/ui/money-field';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { SelectField } from '../../components/ui/select-field';
import { NumberField, TextField } from '../../components/ui/text-field';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/settings.carriers';

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, () => context.api.carriersPage());
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Carriers');
}

type Intent = 'connect' | 'settings' | 'disconnect';
type ActionAnswer = {
  carrier: string;
  intent: Intent;
  result: CarrierFormResult;
  /** What was typed, for a refused save; never the secret (it would be written into the page). */
  values: Record<string, string | string[]> | null;
};

export async function action({ context, request }: Route.ActionArgs) {
  return dashboardRead(request, async () => {
    const form = await request.formData();
    const carrier = String(form.get('carrier') ?? '').slice(0, 20);
    const asked = String(form.get('intent') ?? '');
    const intent: Intent = asked === 'connect' || asked === 'disconnect' ? asked : 'settings';
    const fields: Record<string, string | string[]> = {};
    for (const key of form.keys()) {
      const all = form.getAll(key).map((v) => (typeof v === 'string' ? v.slice(0, 500) : ''));
      fields[key] = key === 'services' ? all : (all[0] ?? '');
    }
    const result = await context.api.saveCarrier(carrier, intent, fields);
    const { clientSecret: _secret, _csrf: _token, ...typed } = fields;
    return data<ActionAnswer>(
      { carrier, intent, result, values: result.ok ? null : typed },
      { status: result.ok ? 200 : result.status },
    );
  });
}

/**
 * What each carrier's developer portal calls the credentials, so the owner copies each value into the
 * box of the same name (UPS: an app's Client ID and Client Secret; FedEx: a project's API Key and
 * Secret Key). The form, its checks and what is stored are the same for every carrier.
 */
interface CarrierLabels {
  clientId: string;
  clientSecret: string;
  accountNumber: string;
  /** Where the owner finds them, in the sentence "Enter the API credentials of …". */
  where: string;
}

const CARRIER_LABELS: Record<Carrier, CarrierLabels> = {
  ups: {
    clientId: 'Client ID',
    clientSecret: 'Client secret',
    accountNumber: 'Account number',
    where: 'your UPS developer app (developer.ups.com, Apps)',
  },
  fedex: {
    clientId: 'API key',
    clientSecret: 'Secret key',
    accountNumber: 'Account number',
    where: 'your FedEx developer project (developer.fedex.com, My Projects)',
  },
};

/** Live rates from the store's own UPS and FedEx accounts, listed at checkout beside the shipping rates. */
export default function CarriersPage({ loaderData: page, actionData }: Route.ComponentProps) {
  const answer = actionData as ActionAnswer | undefined;
  useActionToast(answer?.result.ok ? answer.result : null);
  return (
    <AdminPage
      title="Carriers"
      description="Show shoppers live UPS and FedEx rates at checkout, from your own carrier accounts. Your shipping rates stay: they are what shoppers see when a carrier is slow or down."
    >
      {page.accounts.map((account) => (
        <CarrierAccountCard
          key={`${account.carrier}:${account.updatedAt ?? 'new'}`}
          account={account}
          labels={CARRIER_LABELS[account.carrier]}
          currency={page.currency}
          answer={answer?.carrier === account.carrier ? answer : undefined}
        />
      ))}
    </AdminPage>
  );
}

/** One carrier's card: connect with its credentials, then its services, markup and box, or disconnect. */
function CarrierAccountCard({
  account,
  labels,
  currency,
  answer,
}: {
  account: CarrierAccount;
  labels: CarrierLabels;
  currency: string;
  answer: ActionAnswer | undefined;
}) {
  const failed = answer && !answer.result.ok ? answer.result : null;
  const errors: Partial<Record<CarrierField, string>> = failed?.fieldErrors ?? {};
  const values = failed ? answer?.values : null;
  return (
    <Card
      title={account.name}
      aside={
        account.connected ? (
          <Badge tone="success">{`Connected, account ending ${account.accountEnding}`}</Badge>
        ) : (
          <Badge tone="neutral">Not connected</Badge>
        )
      }
    >
      {failed && !Object.keys(errors).length && <Banner>{failed.message}</Banner>}
      {account.connected ? (
        <ConnectedCarrier
          account={account}
          labels={labels}
          currency={currency}
          errors={errors}
          values={values ?? null}
        />
      ) : (
        <ConnectForm account={account} labels={labels} errors={errors} values={values ?? null} answered={answer} />
      )}
    </Card>
  );
}

function ConnectForm({
  account,
  labels,
  errors,
  values,
  answered,
}: {
  account: CarrierAccount;
  labels: CarrierLabels;
  errors: Partial<Record<CarrierField, string>>;
  values: Record<string, string | string[]> | null;
  answered: unknown;
}) {
  const navigation = useNavigation();
  const busy =
    navigation.state === 'submitting' &&
    navigation.formData?.get('carrier') === account.carrier &&
    navigation.formData?.get('intent') === 'connect';
  const id = (f: string) => `${account.carrier}-${f}`;
  // The secret never comes back to the page: after any answer its box is empty again.
  const secretId = id('clientSecret');
  useEffect(() => {
    const box = document.getElementById(secretId) as HTMLInputElement | null;
    if (answered && box) box.value = '';
  }, [answered, secretId]);
  const typed = (k: string) => (typeof values?.[k] === 'string' ? (values[k] as string) : '');
  return (
    <PostForm className="space-y-4" aria-label={`Connect ${account.name}`} preventScrollReset>
      <input type="hidden" name="carrier" value={account.carrier} />
      <input type="hidden" name="intent" value="connect" />
      <p className="text-sm text-neutral-600">
        Enter the API credentials of {labels.where} and your shipper account number. They are checked with{' '}
        {account.name} when you connect; the secret is stored encrypted and never shown again.
      </p>
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          id={id('clientId')}
          name="clientId"
          label={labels.clientId}
          defaultValue={typed('clientId')}
          autoComplete="off"
          spellCheck={false}
          maxLength={200}
          required
          error={errors.clientId}
        />
        <TextField
          id={id('clientSecret')}
          name="clientSecret"
          label={labels.clientSecret}
          type="password"
          defaultValue=""
          autoComplete="new-password"
          spellCheck={false}
          maxLength={500}
          required
          error={errors.clientSecret}
        />
        <TextField
          id={id('accountNumber')}
          name="accountNumber"
          label={labels.accountNumber}
          defaultValue={typed('accountNumber')}
          autoComplete="off"
          spellCheck={false}
          maxLength={12}
          pattern="[A-Za-z0-9]{6,12}"
          required
          hint="6 to 12 letters or digits."
          error={errors.accountNumber}
        />
      </div>
      <Button type="submit" variant="primary" disabled={busy}>
        <PackageSearch aria-hidden className="size-4" />
        {busy ? 'Checking…' : `Connect ${account.name}`}
      </Button>
    </PostForm>
  );
}

function ConnectedCarrier({
  account,
  labels,
  currency,
  errors,
  values,
}: {
  account: CarrierAccount;
  labels: CarrierLabels;
  currency: string;
  errors: Partial<Record<CarrierField, string>>;
  values: Record<string, string | string[]> | null;
}) {
  const navigation = useNavigation();
  const mine = navigation.state === 'submitting' && navigation.formData?.get('carrier') === account.carrier;
  const saving = mine && navigation.formData?.get('intent') === 'settings';
  const disconnecting = mine && navigation.formData?.get('intent') === 'disconnect';
  const id = (f: string) => `${account.carrier}-${f}`;
  const typed = (k: string, saved: string) => (typeof values?.[k] === 'string' ? (values[k] as string) : saved);
  const picked = new Set(values ? [values.services ?? []].flat() : account.services);
  const [kind, setKind] = useState(typed('markupKind', account.markupKind));
  return (
    <div className="space-y-4">
      <p className="text-sm text-neutral-600">
        {labels.clientId} <span className="font-mono">{account.clientId}</span>
        {account.connectedAt ? `, connected ${formatDateTime(account.connectedAt)}` : ''}.
      </p>
      <PostForm className="space-y-4" aria-label={`${account.name} rates`} preventScrollReset>
        <input type="hidden" name="carrier" value={account.carrier} />
        <input type="hidden" name="intent" value="settings" />
        <fieldset className="space-y-2" aria-describedby={errors.services ? id('services-error') : undefined}>
          <legend className="text-sm font-medium text-neutral-900">Services offered at checkout</legend>
          <div className="grid gap-x-6 gap-y-1 sm:grid-cols-2">
            {account.available.map((s) => (
              <Checkbox
                key={s.code}
                id={id(`service-${s.code}`)}
                name="services"
                value={s.code}
                label={s.name}
                defaultChecked={picked.has(s.code)}
              />
            ))}
          </div>
          {errors.services && (
            <p id={id('services-error')} className="text-sm text-red-700">
              {errors.services}
            </p>
          )}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-3">
          <SelectField
            id={id('markupKind')}
            name="markupKind"
            label="Markup"
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value)}
            options={[
              { value: 'none', label: 'None: the carrier’s rate' },
              { value: 'percent', label: 'Percent of the rate' },
              { value: 'fixed', label: 'Fixed amount per order' },
            ]}
            error={errors.markupKind}
          />
          {kind === 'percent' && (
            <NumberField
              id={id('markupPercent')}
              name="markupPercent"
              label="Percent"
              inputMode="numeric"
              defaultValue={typed('markupPercent', account.markupKind === 'percent' ? String(account.markupValue) : '')}
              hint="Whole percent, 0 to 200."
              error={errors.markupPercent}
            />
          )}
          {kind === 'fixed' && (
            <MoneyField
              id={id('markupAmount')}
              name="markupAmount"
              label="Amount"
              currency={currency}
              cents={account.markupKind === 'fixed' ? account.markupValue : null}
              {...(values ? { text: typed('markupAmount', '') } : {})}
              error={errors.markupAmount}
            />
          )}
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-neutral-900">Box every order ships in (inches)</legend>
          <div className="grid grid-cols-3 gap-3 sm:max-w-md">
            <NumberField
              id={id('lengthIn')}
              name="lengthIn"
              label="Length"
              inputMode="numeric"
              defaultValue={typed('lengthIn', String(account.box.lengthIn))}
              error={errors.lengthIn}
            />
            <NumberField
              id={id('widthIn')}
              name="widthIn"
              label="Width"
              inputMode="numeric"
              defaultValue={typed('widthIn', String(account.box.widthIn))}
              error={errors.widthIn}
            />
            <NumberField
              id={id('heightIn')}
              name="heightIn"
              label="Height"
              inputMode="numeric"
              defaultValue={typed('heightIn', String(account.box.heightIn))}
              error={errors.heightIn}
            />
          </div>
          <p className="text-sm text-neutral-600">
            The parcel’s weight is the cart’s: the sum of its products’ weights.
          </p>
        </fieldset>
        <Button type="submit" variant="primary" disabled={saving}>
          {saving ? 'Saving…' : `Save ${account.name} rates`}
        </Button>
      </PostForm>
      <ConfirmDialog
        trigger={
          <>
            <Unplug aria-hidden className="size-4" />
            {disconnecting ? 'Disconnecting…' : `Disconnect ${account.name}`}
          </>
        }
        title={`Disconnect ${account.name}?`}
        confirm={
          <PostForm preventScrollReset>
            <input type="hidden" name="carrier" value={account.carrier} />
            <Button type="submit" name="intent" value="disconnect" variant="critical" disabled={disconnecting}>
              Disconnect {account.name}
            </Button>
          </PostForm>
        }
      >
        Checkout stops showing {account.name} rates, and the stored credentials are deleted.
      </ConfirmDialog>
    </div>
  );
}
