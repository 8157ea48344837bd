/**
 * A short status in a pill: <Badge tone="success">Active</Badge>. Tones: neutral (default),
 * success, info, warning, critical. Colour is never the only signal: the words say it.
 */
import './kit.css';
import type { HTMLAttributes, ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'success' | 'info' | 'warning' | 'critical';

export function Badge({
  tone = 'neutral',
  children,
  ...rest
}: { tone?: BadgeTone; children: ReactNode } & Omit<HTMLAttributes<HTMLSpanElement>, 'className'>) {
  return (
    <span {...rest} className={`kit-badge ${tone === 'neutral' ? '' : `kit-badge--${tone}`}`}>
      {children}
    </span>
  );
}
