import type { PaypalConfig, PaypalSettingsField, PaypalSettingsFormValues } from '@app/contracts';
import { Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigation } from 'react-router';
import { Banner } from '../../ui/banner';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { Checkbox } from '../../ui/checkbox';
import { ChoiceList } from '../../ui/choice-list';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { PostForm } from '../../ui/post-form';
import { SaveBar } from '../../ui/save-bar';
import { TextField } from '../../ui/text-field';

type Errors = Partial<Record<PaypalSettingsField, string>>;

/** The posted form's fields (the page function reads only the ones it knows). */
export function paypalSettingsValues(form: FormData): PaypalSettingsFormValues {
  const pick = (k: PaypalSettingsField) => {
    const v = form.get(k);
    return typeof v === 'string' ? v.slice(0, 300) : undefined;
  };
  return {
    enabled: pick('enabled') ?? '',
    environment: pick('environment'),
    clientId: pick('clientId'),
    clientSecret: pick('clientSecret'),
  };
}

/** How checkout takes PayPal now, in the owner's words. */
function modeSentence(config: PaypalConfig): string {
  if (!config.enabled) return 'PayPal is switched off: shoppers pay by card only.';
  if (config.mode === 'own_app') return 'Shoppers pay with PayPal into the account of your own PayPal app.';
  if (config.mode === 'partner') return 'Shoppers pay with PayPal into your connected PayPal seller account.';
  return 'PayPal is not set up yet: connect your PayPal account on the Payments page, or use your own PayPal app below.';
}

/**
 * PP_CONFIG as a form: PayPal at checkout on or off, the connected seller's
 * merchant id (read-only), and the store's own PayPal app. A plain form: without JavaScript it posts
 * and comes back with the errors next to the fields and what was typed kept, except the secret,
 * which never travels back to the page: its field is always empty.
 */
export function PaypalSettingsForm({
  config,
  sellerLabel,
  values,
  errors,
  message,
  answered,
}: {
  config: PaypalConfig;
  sellerLabel: string;
  /** The last answer of the action (its identity): a refused save empties the secret field again. */
  answered: unknown;
  /** What was typed, after a refused save; null shows the saved settings. */
  values: Omit<PaypalSettingsFormValues, 'clientSecret'> | null;
  errors: Errors;
  message: string | null;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const enabled = values ? values.enabled === 'on' : config.enabled;
  // Controlled so the switch role's aria-checked follows it; without JavaScript it is a checkbox.
  const [on, setOn] = useState(enabled);
  // Without JavaScript the page comes back with the field empty; with it, the same.
  useEffect(() => {
    const secret = document.getElementById('paypal-client-secret') as HTMLInputElement | null;
    if (answered && secret) secret.value = '';
  }, [answered]);
  const environment = values?.environment ?? config.environment;
  const clientId = values?.clientId ?? config.ownApp?.clientId ?? '';
  const secretHint = config.ownApp
    ? 'Stored. Leave empty to keep it.'
    : 'From your app’s page in the PayPal developer dashboard. It is checked with PayPal when you save.';

  return (
    <PostForm className="space-y-4" aria-label="PayPal settings" preventScrollReset>
      <input type="hidden" name="intent" value="save" />
      {/* First in the form: Enter in a box saves, and Save stays in reach. */}
      <SaveBar busy={saving} message={message ? 'Not saved: see the fields marked' : undefined} />
      {message && <Banner>{message}</Banner>}

      <Card title="PayPal at checkout">
        <Checkbox
          id="paypal-enabled"
          name="enabled"
          role="switch"
          label={<span className="font-medium text-neutral-900">Offer PayPal at checkout</span>}
          checked={on}
          aria-checked={on}
          onChange={(e) => setOn(e.currentTarget.checked)}
          hint={modeSentence(config)}
          error={errors.enabled}
        />
      </Card>

      <Card title="PayPal seller account" aside={<span className="text-xs text-neutral-600">{sellerLabel}</span>}>
        {config.merchantId ? (
          <TextField
            id="paypal-merchant-id"
            name="merchantId"
            label="PayPal merchant ID"
            readOnly
            value={config.merchantId}
            hint={
              <>
                Confirmed by PayPal when you connected. Change it by connecting another account on the{' '}
                <Link to="/manage-store/payments" className="font-medium text-neutral-800 underline">
                  Payments page
                </Link>
                .
              </>
            }
          />
        ) : (
          <p className="text-sm text-neutral-600">
            No PayPal seller account is connected.{' '}
            <Link to="/manage-store/payments" className="font-medium text-neutral-800 underline">
              Connect PayPal on the Payments page
            </Link>{' '}
            to get paid into your own PayPal account without an app of your own.
          </p>
        )}
      </Card>

      <Card title="Use your own PayPal app">
        <p className="text-sm text-neutral-600">
          For stores that already have a PayPal REST app: checkout uses it instead of the connected seller account, and
          the money goes to that app’s PayPal account.
        </p>
        <div className="mt-4 space-y-4">
          <ChoiceList
            title="Environment"
            name="environment"
            defaultValue={environment}
            choices={[
              { value: 'live', label: 'Live' },
              { value: 'sandbox', label: 'Sandbox (test payments)' },
            ]}
            hint="Where PayPal keeps your app: live takes real money, sandbox only test payments."
            error={errors.environment}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              id="paypal-client-id"
              name="clientId"
              label="Client ID"
              defaultValue={clientId}
              autoComplete="off"
              spellCheck={false}
              maxLength={128}
              hint="Your app’s client ID at PayPal."
              error={errors.clientId}
            />
            {/* Always empty: the stored secret never comes back to the page. */}
            <TextField
              id="paypal-client-secret"
              name="clientSecret"
              label="Secret"
              type="password"
              defaultValue=""
              autoComplete="new-password"
              spellCheck={false}
              maxLength={256}
              placeholder={config.ownApp ? '••••••••' : undefined}
              hint={secretHint}
              error={errors.clientSecret}
            />
          </div>
        </div>
      </Card>
    </PostForm>
  );
}

/** Stops using the store's own app: checkout goes back to the seller account (or no PayPal). */
export function RemoveOwnAppCard({ config }: { config: PaypalConfig }) {
  const navigation = useNavigation();
  const removing = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'remove-app';
  if (!config.ownApp) return null;
  return (
    <Card title="Stop using your own app">
      <p className="text-sm text-neutral-600">
        Checkout stops using the app <span className="font-mono">{config.ownApp.clientId}</span> and its stored secret
        is deleted.{' '}
        {config.merchantId
          ? 'PayPal payments go to your connected seller account again.'
          : 'Without a connected seller account, checkout then offers no PayPal.'}
      </p>
      <div className="mt-3">
        <ConfirmDialog
          trigger={
            <>
              <Trash2 aria-hidden className="size-4" />
              {removing ? 'Removing…' : 'Remove own app'}
            </>
          }
          title="Remove your own PayPal app?"
          confirm={
            <PostForm preventScrollReset>
              <Button type="submit" name="intent" value="remove-app" variant="critical" disabled={removing}>
                Remove the app
              </Button>
            </PostForm>
          }
        >
          Its stored secret is deleted; to use it again you enter the secret anew.
        </ConfirmDialog>
      </div>
    </Card>
  );
}
