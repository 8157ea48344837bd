import type { PaymentsPageData } from '@app/contracts';
import { ExternalLink, RefreshCw, Unplug } from 'lucide-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { useNavigation } from 'react-router';
import { formatDateTime } from '../../../lib/dashboard-page';
import { Button, ButtonLink, type ButtonVariant } from '../../ui/button';
import { Card } from '../../ui/card';
import { PostForm } from '../../ui/post-form';
import { SellerBadge } from './seller-badge';

/** Reasons whose next step is a new sign-up rather than a change at PayPal. */
const START_AGAIN = new Set(['CONSENT_NOT_GRANTED', 'CONSENT_REVOKED', 'OTHER_STORE', 'NOT_FOUND_AT_PAYPAL']);

function Submit({
  intent,
  variant,
  busyText,
  children,
}: {
  intent: string;
  variant: ButtonVariant;
  busyText: string;
  children: ReactNode;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  return (
    <Button type="submit" name="intent" value={intent} variant={variant} disabled={busy} aria-disabled={busy}>
      {busy ? busyText : children}
    </Button>
  );
}

/**
 * The store's PayPal seller account: its status, what PayPal confirmed, and the one thing to do next
 * (connect, continue at PayPal, check again, or disconnect behind a confirmation).
 */
export function PayPalCard({ page, confirmDisconnect }: { page: PaymentsPageData; confirmDisconnect: boolean }) {
  const { seller } = page;
  const status = seller.status;
  const startAgain = seller.reasons.some((r) => START_AGAIN.has(r.code));
  // The Disconnect link that opened the confirmation is gone: keyboard focus moves to the question.
  const dialog = useRef<HTMLElement>(null);
  useEffect(() => {
    if (confirmDisconnect) dialog.current?.focus();
  }, [confirmDisconnect]);

  return (
    <Card title="PayPal" aside={<SellerBadge status={status} label={page.statusLabel} />}>
      <p className="text-sm text-neutral-600">
        Connecting lets shoppers pay with PayPal at checkout, with the money going straight into your own PayPal
        business account; you sign up or log in at PayPal and come back here.
      </p>

      {!seller.onboardingAvailable && (
        <p
          role="note"
          className="mt-3 rounded-lg border border-neutral-200 bg-neutral-50 px-3 py-2 text-sm text-neutral-800"
        >
          The platform operator has not set up PayPal for stores yet, so you cannot connect a PayPal account here. If
          your store has its own PayPal app, enter it under PayPal settings.
        </p>
      )}

      <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-neutral-500">Checkout</dt>
          <dd className="font-medium text-neutral-900" data-testid="paypal-checkout">
            {seller.checkoutEnabled ? 'Offers PayPal' : 'Does not offer PayPal'}
          </dd>
        </div>
        {seller.merchantId && (
          <div>
            <dt className="text-neutral-500">PayPal merchant ID</dt>
            <dd className="break-all font-mono font-medium text-neutral-900" data-testid="paypal-merchant-id">
              {seller.merchantId}
            </dd>
          </div>
        )}
        {seller.environment && (
          <div>
            <dt className="text-neutral-500">Environment</dt>
            <dd className="font-medium text-neutral-900">
              {seller.environment === 'live' ? 'Live' : 'Sandbox (test payments)'}
            </dd>
          </div>
        )}
        {seller.checkedAt && (
          <div>
            <dt className="text-neutral-500">Last checked with PayPal</dt>
            <dd className="font-medium text-neutral-900">{formatDateTime(seller.checkedAt)}</dd>
          </div>
        )}
      </dl>

      {status === 'action_needed' && seller.reasons.length > 0 && (
        <div className="mt-4 rounded-lg border border-amber-200 bg-amber-50 px-3 py-3">
          <h3 className="text-sm font-semibold text-amber-950">To finish at PayPal</h3>
          <ol className="mt-1 list-decimal space-y-1 pl-5 text-sm text-amber-950" aria-label="Next steps">
            {seller.reasons.map((r) => (
              <li key={r.code} data-reason={r.code}>
                {r.message}
              </li>
            ))}
          </ol>
        </div>
      )}

      {status === 'pending' && (
        <p className="mt-4 text-sm text-neutral-700">
          Your PayPal sign-up is open. Finish it at PayPal; when you come back the store checks it at once.
        </p>
      )}

      {seller.onboardingAvailable && (
        <div className="mt-4 flex flex-wrap gap-2">
          {(status === 'not_started' || status === 'disconnected') && (
            <PostForm>
              <Submit intent="connect" variant="primary" busyText="Opening PayPal…">
                Connect PayPal
              </Submit>
            </PostForm>
          )}
          {status === 'pending' && (
            <>
              <PostForm>
                <Submit intent="connect" variant="primary" busyText="Opening PayPal…">
                  <ExternalLink aria-hidden className="size-4" />
                  Continue at PayPal
                </Submit>
              </PostForm>
              <PostForm preventScrollReset>
                <Submit intent="check" variant="secondary" busyText="Checking…">
                  <RefreshCw aria-hidden className="size-4" />
                  Check again
                </Submit>
              </PostForm>
            </>
          )}
          {status === 'action_needed' && (
            <>
              <PostForm preventScrollReset>
                <Submit intent="check" variant="primary" busyText="Checking…">
                  <RefreshCw aria-hidden className="size-4" />
                  Check again
                </Submit>
              </PostForm>
              {startAgain && (
                <PostForm>
                  <Submit intent="connect" variant="secondary" busyText="Opening PayPal…">
                    Connect PayPal again
                  </Submit>
                </PostForm>
              )}
            </>
          )}
          {status === 'connected' && !confirmDisconnect && (
            <ButtonLink to="?confirm=disconnect" variant="critical-outline" preventScrollReset>
              <Unplug aria-hidden className="size-4" />
              Disconnect
            </ButtonLink>
          )}
        </div>
      )}

      {(status === 'connected' || status === 'action_needed') && confirmDisconnect && (
        <section
          aria-labelledby="disconnect-heading"
          aria-describedby="disconnect-text"
          role="alertdialog"
          ref={dialog}
          tabIndex={-1}
          className="mt-4 rounded-lg border border-red-200 bg-white p-3 outline-none focus-visible:ring-2 focus-visible:ring-neutral-900"
        >
          <h3 id="disconnect-heading" className="text-sm font-semibold text-neutral-900">
            Disconnect PayPal?
          </h3>
          <p id="disconnect-text" className="mt-1 text-sm text-neutral-700">
            Checkout stops offering PayPal at once. Orders already paid keep their refunds through your PayPal account.
            You can connect again later.
          </p>
          <PostForm className="mt-3 flex flex-wrap gap-2">
            <Submit intent="disconnect" variant="critical" busyText="Disconnecting…">
              Disconnect PayPal
            </Submit>
            <ButtonLink to="." preventScrollReset>
              Keep connected
            </ButtonLink>
          </PostForm>
        </section>
      )}
    </Card>
  );
}
