import type { SupportSessionInfo } from '@app/contracts';
import { LifeBuoy } from 'lucide-react';
import { formatDateTime } from '../../lib/dashboard-page';

/**
 * Every dashboard page of a support session says so, on top, in words: who at the platform is
 * looking and when the access ends. The owner's own sessions never show it.
 */
export function SupportBanner({ support }: { support: SupportSessionInfo | null | undefined }) {
  if (!support) return null;
  return (
    <div
      role="status"
      data-testid="support-banner"
      className="flex items-start gap-2 border-b border-[#b98900] bg-[#ffd79d] px-4 py-2 text-sm text-[#4f3500] md:px-8"
    >
      <LifeBuoy aria-hidden className="mt-0.5 size-4 shrink-0" />
      <p>
        You are viewing this store as platform support (<strong className="break-all">{support.operatorEmail}</strong>)
        — access ends at {formatDateTime(support.expiresAt)}.
      </p>
    </div>
  );
}
