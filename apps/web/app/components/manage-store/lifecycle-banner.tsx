import type { DashboardLifecycle } from '@app/contracts';
import { Lock } from 'lucide-react';

/**
 * Every dashboard page of a store that is not active says so on top (decision 099): suspended or
 * closing stores are read-only (the server refuses every change), a closing store until its date.
 * An active store shows nothing.
 */
export function LifecycleBanner({ lifecycle }: { lifecycle: DashboardLifecycle | null | undefined }) {
  if (!lifecycle?.banner) return null;
  return (
    <div
      role="status"
      data-testid="lifecycle-banner"
      className="flex items-start gap-2 border-b border-[#e0b3b2] bg-[#fee9e8] px-4 py-2 text-sm text-[#5e1111] md:px-8"
    >
      <Lock aria-hidden className="mt-0.5 size-4 shrink-0" />
      <p>
        {lifecycle.readOnly && <strong>Read-only. </strong>}
        {lifecycle.banner}
      </p>
    </div>
  );
}
