import type { StripeAccountView, StripeFormResult } from '@app/contracts';
import { Unplug } from 'lucide-react';
import { useNavigation } from 'react-router';
import { formatDateTime } from '../../../lib/dashboard-page';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { PostForm } from '../../ui/post-form';
import { TextField } from '../../ui/text-field';

/**
 * The store's own Stripe account (decision 118): connect with the secret key and the webhook
 * endpoint's signing secret (checked with Stripe when saved, never shown again), or disconnect.
 */
export function StripeCard({ account, answer }: { account: StripeAccountView; answer: StripeFormResult | null }) {
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  const errors = answer && !answer.ok ? answer.fieldErrors : {};
  return (
    <Card
      title="Stripe"
      aside={
        account.connected ? (
          <Badge tone="success">Connected{account.mode === 'live' ? '' : ' (test mode)'}</Badge>
        ) : (
          <Badge>Not connected</Badge>
        )
      }
    >
      <p className="text-sm text-neutral-600">
        Take card payments through your own Stripe account: at checkout shoppers choose “Pay with card (Stripe)” and pay
        on Stripe’s page, including any check their bank asks for.
      </p>
      {account.connected ? (
        <>
          <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-neutral-500">Secret key</dt>
              <dd className="break-all font-mono font-medium text-neutral-900" data-testid="stripe-key-hint">
                {account.keyHint}
              </dd>
            </div>
            <div>
              <dt className="text-neutral-500">Webhook signing secret</dt>
              <dd className="font-medium text-neutral-900">{account.webhookSecretSet ? 'Saved' : 'Missing'}</dd>
            </div>
            {account.connectedAt && (
              <div>
                <dt className="text-neutral-500">Connected</dt>
                <dd className="font-medium text-neutral-900">{formatDateTime(account.connectedAt)}</dd>
              </div>
            )}
          </dl>
          <PostForm className="mt-4">
            <Button
              type="submit"
              name="intent"
              value="stripe-disconnect"
              variant="secondary"
              disabled={busy('stripe-disconnect')}
            >
              <Unplug aria-hidden className="size-4" />
              {busy('stripe-disconnect') ? 'Disconnecting…' : 'Disconnect Stripe'}
            </Button>
          </PostForm>
        </>
      ) : (
        <PostForm className="mt-4 grid max-w-xl gap-4">
          <TextField
            label="Secret key"
            name="secretKey"
            type="password"
            autoComplete="off"
            spellCheck={false}
            required
            hint="In your Stripe dashboard: Developers, API keys. It starts with sk_test_ or sk_live_."
            error={errors.secretKey}
          />
          <TextField
            label="Webhook signing secret"
            name="webhookSecret"
            type="password"
            autoComplete="off"
            spellCheck={false}
            required
            hint="Add an endpoint for /api/stripe/webhook on your store’s address in Stripe, then copy its signing secret (whsec_…)."
            error={errors.webhookSecret}
          />
          <div>
            <Button
              type="submit"
              name="intent"
              value="stripe-connect"
              variant="primary"
              disabled={busy('stripe-connect')}
            >
              {busy('stripe-connect') ? 'Checking with Stripe…' : 'Connect Stripe'}
            </Button>
          </div>
        </PostForm>
      )}
    </Card>
  );
}

/** The built-in test provider, named as what it is: no money moves through it. */
export function TestCardsCard({ account }: { account: StripeAccountView }) {
  return (
    <Card
      title="Test card payments (test mode)"
      aside={account.testCardsOffered ? <Badge tone="warning">On</Badge> : <Badge>Off</Badge>}
    >
      <p className="text-sm text-neutral-600">
        The platform’s built-in test provider: card 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined, and no
        money moves.{' '}
        {account.testCardsOffered
          ? 'Checkout offers it until you connect Stripe with a live key.'
          : 'It is off because Stripe is connected with a live key: cards go through Stripe.'}
      </p>
    </Card>
  );
}
