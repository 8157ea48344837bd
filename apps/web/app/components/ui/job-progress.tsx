/**
 * A background job's progress while it runs (the sitemap, the store export, a product import, a bulk
 * change): the state in words, a bar with its percent, an error if the last attempt failed, and a
 * Refresh link for a browser without JavaScript.
 *
 *   <JobProgress label="Store export" done={12} total={40} refreshTo=".">Exporting: 12 of 40 records</JobProgress>
 *
 * The words are a polite live region, so a screen reader hears the progress without losing its place;
 * the bar is a `progressbar` named by `label` whose value is the same percent the eye reads.
 */

import type { ReactNode } from 'react';
import { useEffect, useRef } from 'react';
import { Link, useRevalidator } from 'react-router';

/** Whole percent of done in total, 0 when the total is not known yet, never above 100. */
export function jobPercent(done: number, total: number) {
  return total > 0 ? Math.min(100, Math.max(0, Math.round((done / total) * 100))) : 0;
}

export function JobProgress({
  label,
  done,
  total,
  children,
  error,
  refreshTo,
  reloadDocument = false,
  hint,
  testId,
}: {
  /** The bar's accessible name: what runs ("Store export"). */
  label: string;
  done: number;
  total: number;
  /** The state in words: "Waiting to start…", "Exporting: 12 of 40 records". */
  children: ReactNode;
  /** Why the last attempt failed, when the job tries again. */
  error?: string | null;
  /** Where Refresh leads (the page itself, with its query); no link when left out. */
  refreshTo?: string;
  /** Refresh loads the whole document (a page whose loader reads a query the link keeps). */
  reloadDocument?: boolean;
  /** A line before Refresh ("You can leave this page; the import goes on."). */
  hint?: ReactNode;
  testId?: string;
}) {
  const percent = jobPercent(done, total);
  return (
    <div className="space-y-2" data-testid={testId}>
      <div className="flex items-baseline justify-between gap-3">
        <p className="text-sm text-neutral-700" role="status">
          {children}
        </p>
        {/* The bar says its value to a screen reader; the figure is for the eye. */}
        <span aria-hidden className="text-xs font-medium tabular-nums text-neutral-500">
          {percent}%
        </span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-neutral-200"
      >
        {/* A sliver shows even at 0%, so a waiting job does not look like an empty, broken bar. */}
        <div className="h-full bg-neutral-900 transition-all" style={{ width: `${Math.max(percent, 4)}%` }} />
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-800">
          {error}
        </p>
      ) : null}
      {hint || refreshTo ? (
        <p className="text-xs text-neutral-500">
          {hint}
          {hint && refreshTo ? ' ' : null}
          {refreshTo ? (
            <Link
              to={refreshTo}
              reloadDocument={reloadDocument}
              className="text-sm font-medium text-neutral-700 underline underline-offset-2"
            >
              Refresh
            </Link>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Reads the page's loader again every `everyMs` while `running`, so a job's progress moves without a
 * reload. One timer for the whole run (not one per answer); a tick is skipped while a read is still
 * under way or the tab is hidden, so a slow server or a background tab is not asked again and again.
 */
export function useRevalidateWhileRunning(running: boolean, everyMs = 1000) {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      const r = latest.current;
      if (r.state === 'idle' && document.visibilityState !== 'hidden') void r.revalidate();
    }, everyMs);
    return () => clearInterval(timer);
  }, [running, everyMs]);
}
