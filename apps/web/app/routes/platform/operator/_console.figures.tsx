import type { PlatformFigures } from '@app/contracts';
import { CONSOLE_STATE_BADGES, CONSOLE_STATES, formatMoney } from '@app/contracts/client';
import { Form } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { type Column, DataTable } from '../../../components/ui/data-table';
import { AdminPage } from '../../../components/ui/page-header';
import { SelectField } from '../../../components/ui/select-field';
import { COUNT, consoleMeta, consoleRead, platformApi } from '../../../lib/console-page';
import type { Route } from './+types/_console.figures';

const RANGES = [7, 30, 90, 365] as const;

export async function loader({ context, request }: Route.LoaderArgs) {
  return consoleRead(request, async () => {
    const days = new URL(request.url).searchParams.get('days') ?? '30';
    return { figures: await platformApi(context).consoleFigures({ days: days.slice(0, 4) }) };
  });
}

export function meta() {
  return consoleMeta('Figures');
}

type Day = PlatformFigures['perDay'][number];
const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const salesText = (d: Day) =>
  d.sales.length ? d.sales.map((m) => formatMoney(m.amount, m.currency)).join(' + ') : '—';

/**
 * A bar per day, drawn as plain HTML (no chart library): the bars are decoration, the table under
 * them says the same numbers to a screen reader and works without JavaScript.
 */
function Bars({ days, value, label }: { days: Day[]; value: (d: Day) => number; label: string }) {
  const max = Math.max(1, ...days.map(value));
  return (
    <div aria-hidden className="flex h-24 items-end gap-px border-b border-[#e3e3e3]" title={label}>
      {days.map((d) => (
        <div
          key={d.day}
          className="min-w-0 flex-1 rounded-t-sm bg-[#303030]"
          style={{ height: `${Math.round((value(d) / max) * 100)}%` }}
        />
      ))}
    </div>
  );
}

/** The platform at a glance: stores by state, and sign-ups, orders and sales per day. */
export default function FiguresPage({ loaderData }: Route.ComponentProps) {
  const { figures } = loaderData;
  const days = figures.perDay;
  const total = (f: (d: Day) => number) => days.reduce((n, d) => n + f(d), 0);
  const columns: Column<Day>[] = [
    { header: 'Day', cell: (d) => DAY.format(new Date(d.day)), rowHeader: true, className: 'whitespace-nowrap' },
    { header: 'Sign-ups', cell: (d) => COUNT.format(d.signups), align: 'end' },
    { header: 'Orders', cell: (d) => COUNT.format(d.orders), align: 'end' },
    { header: 'Sales', cell: salesText, align: 'end', className: 'whitespace-nowrap' },
  ];
  return (
    <AdminPage
      title="Figures"
      description={`Across every store, the last ${figures.days} days (UTC).`}
      secondaryActions={
        <Form method="get" className="flex items-end gap-2" aria-label="Range">
          <SelectField
            label="Range"
            labelHidden
            name="days"
            defaultValue={String(figures.days)}
            options={RANGES.map((n) => ({ value: String(n), label: `Last ${n} days` }))}
          />
          <Button type="submit">Show</Button>
        </Form>
      }
    >
      <Card
        title="Stores by state"
        aside={<span className="text-xs text-[#616161]">{COUNT.format(figures.totalStores)} in all</span>}
      >
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          {CONSOLE_STATES.map((s) => (
            <div key={s} className="rounded-lg border border-[#e3e3e3] p-3">
              <dt className="text-xs font-medium text-[#616161]">{CONSOLE_STATE_BADGES[s].label}</dt>
              <dd className="mt-1 text-xl font-semibold tabular-nums">{COUNT.format(figures.storesByState[s] ?? 0)}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <Card title="Per day">
        <div className="grid gap-4 sm:grid-cols-2">
          <figure>
            <figcaption className="mb-1 text-sm font-medium">
              Sign-ups: {COUNT.format(total((d) => d.signups))}
            </figcaption>
            <Bars days={days} value={(d) => d.signups} label="Sign-ups per day" />
          </figure>
          <figure>
            <figcaption className="mb-1 text-sm font-medium">Orders: {COUNT.format(total((d) => d.orders))}</figcaption>
            <Bars days={days} value={(d) => d.orders} label="Orders per day" />
          </figure>
        </div>
      </Card>
      <Card title="Day by day" flush>
        <DataTable
          label="Sign-ups, orders and sales per day"
          rows={[...days].reverse()}
          rowKey={(d) => d.day}
          columns={columns}
          minWidth="24rem"
          focusable
        />
      </Card>
    </AdminPage>
  );
}
