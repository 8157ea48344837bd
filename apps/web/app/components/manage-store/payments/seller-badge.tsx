import type { SellerStatus } from '@app/contracts/client';

/** Polaris's tones: nothing yet (neutral), waiting on PayPal (info), owner's turn (attention), done (success). */
const TONE: Record<SellerStatus, string> = {
  not_started: 'bg-neutral-200 text-neutral-800',
  pending: 'bg-sky-100 text-sky-900',
  action_needed: 'bg-amber-100 text-amber-900',
  connected: 'bg-green-100 text-green-900',
  disconnected: 'bg-neutral-200 text-neutral-800',
};

/** The store's PayPal connection as a status badge (SELLER_STATUS_LABELS). */
export function SellerBadge({ status, label }: { status: SellerStatus; label: string }) {
  return (
    <span
      className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${TONE[status]}`}
      data-testid="paypal-status"
    >
      {label}
    </span>
  );
}
