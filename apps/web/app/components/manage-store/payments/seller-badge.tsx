import type { SellerStatus } from '@app/contracts/client';
import { Badge, type BadgeTone } from '../../ui/badge';

/** Polaris's tones: nothing yet (neutral), waiting on PayPal (info), owner's turn (warning), done (success). */
const TONE: Record<SellerStatus, BadgeTone> = {
  not_started: 'neutral',
  pending: 'info',
  action_needed: 'warning',
  connected: 'success',
  disconnected: 'neutral',
};

/** The store's PayPal connection as a status badge (SELLER_STATUS_LABELS). */
export function SellerBadge({ status, label }: { status: SellerStatus; label: string }) {
  return (
    <Badge tone={TONE[status]} data-testid="paypal-status">
      {label}
    </Badge>
  );
}
