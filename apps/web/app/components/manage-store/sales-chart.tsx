import type { AnalyticsRange, SalesPoint } from '@app/contracts';
import { formatMoney } from '@app/contracts/client';
import { useEffect, useRef, useState } from 'react';
import { DataTable } from '../ui/data-table';

const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const HOUR = new Intl.DateTimeFormat('en-US', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' });

/** A bucket's name as the table and the chart's axis print it: "14:00", "Nov 25", "Week of Nov 2". */
export function bucketLabel(start: string, bucket: AnalyticsRange['bucket']): string {
  const d = new Date(start);
  if (bucket === 'hour') return HOUR.format(d);
  if (bucket === 'week') return `Week of ${DAY.format(d)}`;
  return DAY.format(d);
}

/**
 * Sales over time: a uPlot line chart drawn in the browser, and the same numbers as a table. The
 * table is what a screen reader reads and what shows without JavaScript; once the chart is drawn
 * the table is kept for screen readers only. uPlot (about 50 KB) is imported when this mounts, so
 * it is a chunk of the dashboard home alone and never part of a storefront page (decision 048).
 */
export function SalesChart({
  points,
  bucket,
  currency,
  label,
}: {
  points: SalesPoint[];
  bucket: AnalyticsRange['bucket'];
  currency: string;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    let plot: { destroy(): void; setSize(s: { width: number; height: number }): void } | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    const el = box.current;
    if (!el) return;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (cancelled) return;
      const size = () => ({ width: Math.max(240, el.clientWidth), height: el.clientWidth < 480 ? 180 : 220 });
      const xs = points.map((p) => Date.parse(p.start) / 1000);
      const ys = points.map((p) => p.sales);
      const money = (v: number) => formatMoney(Math.round(v), currency, { trim: true });
      plot = new UPlot(
        {
          ...size(),
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'),
          scales: { y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 100] } },
          axes: [
            {
              stroke: '#525252',
              grid: { show: false },
              ticks: { stroke: '#e5e5e5' },
              font: '11px system-ui, sans-serif',
              // Ticks on whole buckets only, so a day is never labelled twice.
              incrs:
                bucket === 'hour'
                  ? [3600, 2 * 3600, 3 * 3600, 6 * 3600]
                  : bucket === 'day'
                    ? [86400, 2 * 86400, 7 * 86400, 14 * 86400]
                    : [604800, 2 * 604800, 4 * 604800, 8 * 604800],
              values: (_u, splits) => splits.map((s) => bucketLabel(new Date(s * 1000).toISOString(), bucket)),
            },
            {
              stroke: '#525252',
              grid: { stroke: '#f0f0f0' },
              ticks: { show: false },
              font: '11px system-ui, sans-serif',
              size: 64,
              values: (_u, splits) => splits.map(money),
            },
          ],
          series: [
            {},
            {
              label: 'Sales',
              stroke: '#1d4ed8',
              width: 2,
              fill: 'rgba(29, 78, 216, 0.08)',
              points: { show: points.length <= 31, size: 5 },
            },
          ],
        },
        [xs, ys],
        el,
      );
      observer = new ResizeObserver(() => plot?.setSize(size()));
      observer.observe(el);
      setDrawn(true);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [points, bucket, currency]);

  const orders = points.reduce((n, p) => n + p.orders, 0);
  return (
    <div>
      {/* The chart is a picture of the table below: screen readers read the table instead. */}
      <div ref={box} aria-hidden className={drawn ? 'w-full' : 'hidden'} />
      {/* Until the chart is drawn (and without JavaScript) the table is the chart: a box that scrolls
          when there are many rows, focusable and named so a keyboard can scroll it too. */}
      <div
        className={drawn ? 'sr-only' : 'max-h-80 overflow-auto rounded-lg border border-neutral-200'}
        {...(drawn ? {} : { tabIndex: 0, role: 'region', 'aria-label': `Sales over time, ${label}` })}
      >
        <DataTable
          label={`Sales over time, ${label}: ${orders} orders`}
          rows={points}
          rowKey={(p) => p.start}
          minWidth="0"
          columns={[
            {
              header: bucket === 'hour' ? 'Hour (UTC)' : bucket === 'week' ? 'Week' : 'Day',
              rowHeader: true,
              className: 'text-neutral-700',
              cell: (p) => <time dateTime={p.start}>{bucketLabel(p.start, bucket)}</time>,
            },
            { header: 'Orders', align: 'end', className: 'tabular-nums', cell: (p) => p.orders },
            { header: 'Sales', align: 'end', className: 'tabular-nums', cell: (p) => formatMoney(p.sales, currency) },
          ]}
        />
      </div>
    </div>
  );
}
