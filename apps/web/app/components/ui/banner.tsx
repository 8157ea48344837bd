/**
 * A message about the whole form or page (a refused save's summary, a warning):
 * <Banner tone="critical">Some fields need attention.</Banner>. Critical banners are alerts (read
 * at once); the others are statuses.
 */
import './kit.css';
import type { ReactNode } from 'react';

export function Banner({
  tone = 'critical',
  children,
  testId,
}: {
  tone?: 'critical' | 'warning' | 'success' | 'info';
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div
      role={tone === 'critical' ? 'alert' : 'status'}
      className={`kit-banner kit-banner--${tone}`}
      data-testid={testId}
    >
      {children}
    </div>
  );
}
