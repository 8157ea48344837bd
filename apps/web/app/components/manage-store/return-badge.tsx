import type { ReturnStatus } from '@app/contracts/client';

/** Polaris's tones: waiting on the store (attention), under way, done, ended without a refund. */
const TONE: Record<ReturnStatus, string> = {
  requested: 'bg-amber-100 text-amber-900',
  approved: 'bg-sky-100 text-sky-900',
  received: 'bg-indigo-100 text-indigo-900',
  refunded: 'bg-green-100 text-green-900',
  rejected: 'bg-red-100 text-red-900',
  cancelled: 'bg-neutral-200 text-neutral-800',
};

/** A return request's status as the dashboard shows it. */
export function ReturnBadge({ status, label }: { status: ReturnStatus; label: string }) {
  return (
    <span
      className={`inline-flex whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${TONE[status]}`}
      data-testid="return-status"
    >
      {label}
    </span>
  );
}
