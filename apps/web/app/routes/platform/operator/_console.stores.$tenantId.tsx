import type {
  AuditEntry,
  OperatorStoreAction,
  OperatorStoreDetail,
  StoreMove,
  StoreStateChange,
  StoreWhereabouts,
} from '@app/contracts';
import { CONSOLE_ACTIONS, CONSOLE_STATE_BADGES, formatMoney } from '@app/contracts/client';
import { ArrowLeft, ExternalLink, LifeBuoy, ScrollText } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { data, Link, useNavigation } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { type Column, DataTable } from '../../../components/ui/data-table';
import { AdminEmptyState } from '../../../components/ui/empty-state';
import { JobProgress, useRevalidateWhileRunning } from '../../../components/ui/job-progress';
import { AdminPage } from '../../../components/ui/page-header';
import { cursorHref, Pagination } from '../../../components/ui/pagination';
import { PostForm } from '../../../components/ui/post-form';
import { SelectField } from '../../../components/ui/select-field';
import { TextAreaField } from '../../../components/ui/text-field';
import { COUNT, consoleMeta, consoleRead, platformApi } from '../../../lib/console-page';
import { formatDateTime } from '../../../lib/dashboard-page';
import { useActionToast } from '../../../lib/use-action-toast';
import type { Route } from './+types/_console.stores.$tenantId';

const ACTIONS = Object.keys(CONSOLE_ACTIONS) as OperatorStoreAction[];

export async function loader({ context, request, params }: Route.LoaderArgs) {
  return consoleRead(request, async () => {
    const platform = platformApi(context);
    const tenantId = params.tenantId.slice(0, 64);
    const url = new URL(request.url);
    const cursor = url.searchParams.get('audit')?.slice(0, 200) ?? null;
    const [store, audit, where] = await Promise.all([
      platform.consoleStore(tenantId),
      platform.consoleStoreAudit(tenantId, cursor).catch(() => null),
      platform.consoleStoreWhereabouts(tenantId),
    ]);
    if (!store) throw data({ message: 'No such store.' }, { status: 404 });
    // Just opened from Create store (which redirects here).
    return { store, audit, where, auditCursor: cursor, created: url.searchParams.has('created') };
  });
}

/** One action per form: its intent names it; every one carries the operator's reason. */
export async function action({ context, request, params }: Route.ActionArgs) {
  return consoleRead(request, async () => {
    const form = await request.formData();
    const platform = platformApi(context);
    const intent = String(form.get('intent') ?? '');
    const reason = String(form.get('reason') ?? '').slice(0, 2000);
    const tenantId = params.tenantId.slice(0, 64);
    if (intent === 'move') {
      const database = String(form.get('database') ?? '').slice(0, 64);
      const result = await platform.consoleMoveStore(tenantId, { database, reason });
      return data({ intent, result, reason, database }, { status: result.ok ? 200 : result.status });
    }
    if (intent === 'support') {
      const result = await platform.consoleStartSupport(tenantId, { reason });
      return data({ intent, result, reason }, { status: result.ok ? 200 : result.status });
    }
    if (!(ACTIONS as string[]).includes(intent)) throw data({ message: 'Unknown action.' }, { status: 400 });
    const result = await platform.consoleStoreAction(tenantId, intent as OperatorStoreAction, { reason });
    return data({ intent, result, reason }, { status: result.ok ? 200 : result.status });
  });
}

export function meta({ data: d }: Route.MetaArgs) {
  return consoleMeta(d?.store.name ?? 'Store');
}

type Answer = Route.ComponentProps['actionData'];

/** A store as the platform sees it: who, where, its state and why, what happened, and what can be done. */
export default function StorePage({ loaderData, actionData }: Route.ComponentProps) {
  const { store, audit, where, auditCursor, created } = loaderData;
  const badge = CONSOLE_STATE_BADGES[store.lifecycle.state];
  const toasted = actionData && actionData.intent !== 'support' && actionData.result.ok ? actionData.result : null;
  useActionToast(toasted as { ok: true; message: string } | null);
  return (
    <AdminPage
      title={
        <span className="flex flex-wrap items-center gap-2">
          {store.name}
          <Badge tone={badge.tone} data-testid="store-state">
            {badge.label}
          </Badge>
        </span>
      }
      description={
        <Link to="/operator" className="inline-flex items-center gap-1 text-[#005bd3] hover:underline">
          <ArrowLeft aria-hidden className="size-3.5" />
          All stores
        </Link>
      }
      aside={
        <>
          <ActionsCard store={store} answer={actionData} />
          {where && movable(where).length > 1 && <DatabaseCard store={store} where={where} answer={actionData} />}
          <SupportCard store={store} answer={actionData} />
        </>
      }
    >
      {created && (
        <Banner tone="success">
          {`Store created at ${store.hosts[0]?.hostName ?? 'its new host'}. Its owner gets an email with a link to choose a password.`}
        </Banner>
      )}
      {store.lifecycle.state !== 'active' && <StateBanner store={store} />}
      <Overview store={store} database={where?.database ?? null} />
      {store.cancelRequest && <CancelRequestCard store={store} />}
      <HistoryCard history={store.history} />
      <AuditCard audit={audit} cursor={auditCursor} />
    </AdminPage>
  );
}

function StateBanner({ store }: { store: OperatorStoreDetail }) {
  const { state, since, closesAt } = store.lifecycle;
  const when = since ? ` since ${formatDateTime(since)}` : '';
  const text =
    state === 'suspended'
      ? `Suspended${when}: the storefront is unavailable and the dashboard read-only.`
      : state === 'closing'
        ? `Closing${when}: the storefront is closed; the owner can export${closesAt ? ` until ${formatDateTime(closesAt)}` : ''}.`
        : state === 'closed'
          ? `Closed${when}.${store.purgeAllowedFrom ? ` It may be purged from ${formatDateTime(store.purgeAllowedFrom)}.` : ''}`
          : state === 'provisioning'
            ? 'Being set up: the store has not opened yet.'
            : 'Purged: its data is gone.';
  return <Banner tone={state === 'closed' || state === 'purged' ? 'critical' : 'warning'}>{text}</Banner>;
}

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-[#616161]">{term}</dt>
      <dd className="mt-0.5 text-sm break-words text-[#171717]">{children}</dd>
    </div>
  );
}

function Overview({ store, database }: { store: OperatorStoreDetail; database: string | null }) {
  const { counts, owner } = store;
  const sales = counts.sales30d.length
    ? counts.sales30d.map((m) => formatMoney(m.amount, m.currency)).join(' + ')
    : formatMoney(0, store.stores[0]?.currency ?? 'USD');
  return (
    <Card title="Overview">
      <dl className="grid grid-cols-2 gap-4">
        <Fact term="Owner">
          {owner ? (
            <>
              {owner.firstName} {owner.lastName} · <span className="break-all">{owner.email}</span>
              {!owner.emailConfirmed && (
                <span className="ml-1">
                  <Badge tone="warning">Invitation not accepted</Badge>
                </span>
              )}
            </>
          ) : (
            'No owner account'
          )}
        </Fact>
        <Fact term="Hosts">
          {store.hosts.length ? (
            <ul>
              {store.hosts.map((h) => (
                <li key={h.hostName} className="break-all">
                  {h.hostName}
                </li>
              ))}
            </ul>
          ) : (
            '—'
          )}
        </Fact>
        <Fact term="Created">{formatDateTime(store.createdAt)}</Fact>
        <Fact term="Last activity">{store.lastActivityAt ? formatDateTime(store.lastActivityAt) : 'None yet'}</Fact>
        <Fact term="Products">{COUNT.format(counts.products)}</Fact>
        <Fact term="Customers">{COUNT.format(counts.customers)}</Fact>
        <Fact term="Orders (all time / 30 days)">
          {COUNT.format(counts.orders)} / {COUNT.format(counts.orders30d)}
        </Fact>
        <Fact term="Sales (30 days)">{sales}</Fact>
        <Fact term="Staff">{COUNT.format(counts.staff)}</Fact>
        <Fact term="Store id">{store.tenantId}</Fact>
        {database && <Fact term="Database">{database}</Fact>}
      </dl>
    </Card>
  );
}

function CancelRequestCard({ store }: { store: OperatorStoreDetail }) {
  const cr = store.cancelRequest;
  if (!cr) return null;
  return (
    <Card title="Cancel request" aside={<Badge tone="warning">{cr.status}</Badge>}>
      <p className="text-sm text-[#303030]">
        {cr.requestedAt ? `Filed ${formatDateTime(cr.requestedAt)}` : 'Filed'} by the owner.
      </p>
      {cr.reason && (
        <blockquote className="mt-2 border-l-4 border-[#e3e3e3] pl-3 text-sm whitespace-pre-wrap text-[#303030]">
          {cr.reason}
        </blockquote>
      )}
      {cr.status === 'requested' && (
        <p className="mt-2 text-xs text-[#616161]">Approve or decline it from the actions.</p>
      )}
    </Card>
  );
}

const actorText = (c: StoreStateChange) =>
  c.actor.kind === 'operator' ? c.actor.email : c.actor.kind === 'owner' ? 'The owner' : `System (${c.actor.name})`;

function HistoryCard({ history }: { history: StoreStateChange[] }) {
  const columns: Column<StoreStateChange>[] = [
    { header: 'When', cell: (c) => formatDateTime(c.at), className: 'whitespace-nowrap' },
    {
      header: 'Change',
      cell: (c) => (
        <span>
          {c.from ? CONSOLE_STATE_BADGES[c.from].label : 'New'} → {CONSOLE_STATE_BADGES[c.to].label}
        </span>
      ),
    },
    { header: 'Who', cell: (c) => <span className="break-words">{actorText(c)}</span> },
    { header: 'Why', cell: (c) => <span className="whitespace-pre-wrap">{c.reason}</span>, className: 'min-w-[10rem]' },
  ];
  return (
    <Card title="State history" flush>
      {history.length === 0 ? (
        <AdminEmptyState title="No changes yet" />
      ) : (
        <DataTable
          label="State history"
          rows={history}
          rowKey={(c) => String(c.seq)}
          columns={columns}
          minWidth="32rem"
          focusable
        />
      )}
    </Card>
  );
}

function AuditCard({
  audit,
  cursor,
}: {
  audit: { entries: AuditEntry[]; nextCursor: string | null } | null;
  cursor: string | null;
}) {
  const columns: Column<AuditEntry>[] = [
    { header: 'When', cell: (e) => formatDateTime(e.at), className: 'whitespace-nowrap' },
    {
      header: 'Who',
      cell: (e) => <span className="break-all">{e.actor.email ?? e.actor.name ?? e.actor.id ?? e.actor.kind}</span>,
    },
    { header: 'Action', cell: (e) => <code className="text-xs">{e.action}</code> },
    { header: 'What', cell: (e) => `${e.entity} ${e.entityId}` },
  ];
  return (
    <Card
      title="Store’s audit log"
      description="What the owner, staff and support did in this store, newest first."
      flush
    >
      {!audit || audit.entries.length === 0 ? (
        <AdminEmptyState
          icon={<ScrollText className="size-6" />}
          title={audit ? 'Nothing recorded yet' : 'Not available'}
        />
      ) : (
        <>
          <DataTable
            label="Store’s audit log"
            rows={audit.entries}
            rowKey={(e) => e.id}
            columns={columns}
            minWidth="36rem"
            focusable
          />
          <div className="px-3 pb-3">
            <Pagination
              label="Audit log pages"
              next={audit.nextCursor && `${cursorHref({ audit: audit.nextCursor }, null)}#card-store-s-audit-log`}
              first={cursor ? '?' : null}
            />
          </div>
        </>
      )}
    </Card>
  );
}

/** Whether the form with this intent is being sent now. */
function usePending(intent: string) {
  const navigation = useNavigation();
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
}

function ReasonForm({
  intent,
  label,
  answer,
  variant,
}: {
  intent: string;
  label: string;
  answer: Answer;
  variant: 'critical' | 'primary';
}) {
  const pending = usePending(intent);
  const failure = answer && answer.intent === intent && !answer.result.ok ? answer.result : null;
  return (
    <PostForm className="space-y-3" aria-label={label}>
      <input type="hidden" name="intent" value={intent} />
      {failure && !failure.fieldErrors.reason && <Banner>{failure.message}</Banner>}
      <TextAreaField
        id={`reason-${intent}`}
        label="Reason"
        name="reason"
        rows={2}
        required
        maxLength={1000}
        defaultValue={failure ? (answer?.reason ?? '') : ''}
        error={failure?.fieldErrors.reason}
        hint="Kept in the store’s history and the platform’s audit log."
      />
      <Button type="submit" variant={variant} disabled={pending}>
        {pending ? 'Working…' : label}
      </Button>
    </PostForm>
  );
}

/**
 * The actions the store's state allows (the server's list), each behind a confirm that says what
 * will happen and asks why. A refused one opens again with the message and the reason typed.
 */
function ActionsCard({ store, answer }: { store: OperatorStoreDetail; answer: Answer }) {
  const offered = ACTIONS.filter((a) => store.actions.includes(a));
  return (
    <Card title="Actions">
      {offered.length === 0 ? (
        <p className="text-sm text-[#616161]">Nothing can be done from this state.</p>
      ) : (
        <ul className="space-y-2">
          {offered.map((a) => {
            const def = CONSOLE_ACTIONS[a];
            const failed = answer?.intent === a && !answer.result.ok;
            return (
              <li key={a}>
                <ConfirmDialog
                  trigger={def.label}
                  title={def.question}
                  defaultOpen={failed}
                  triggerVariant={def.destructive ? 'critical-outline' : 'secondary'}
                  confirm={
                    <ReasonForm
                      intent={a}
                      label={def.label}
                      answer={answer}
                      variant={def.destructive ? 'critical' : 'primary'}
                    />
                  }
                  testId={`action-${a}`}
                >
                  {def.effect}
                </ConfirmDialog>
              </li>
            );
          })}
        </ul>
      )}
      {store.lifecycle.state === 'closed' && store.purgeAllowedFrom && !store.actions.includes('purge') && (
        <p className="mt-3 text-xs text-[#616161]">Purge is possible from {formatDateTime(store.purgeAllowedFrom)}.</p>
      )}
    </Card>
  );
}

/**
 * Support access: only while the owner's grant is live. Starting a session answers a one-time
 * address on the store's host; with JavaScript the browser goes there at once, without it the
 * link is shown.
 */
function SupportCard({ store, answer }: { store: OperatorStoreDetail; answer: Answer }) {
  const grant = store.supportAccess;
  const started = answer?.intent === 'support' && answer.result.ok ? (answer.result as { enterUrl: string }) : null;
  // Once per link: the link works once, and a second visit (a re-render) would find it used.
  const followed = useRef<string | null>(null);
  useEffect(() => {
    if (!started || followed.current === started.enterUrl) return;
    followed.current = started.enterUrl;
    window.location.assign(started.enterUrl);
  }, [started]);
  return (
    <Card title="Support access">
      {!grant?.active ? (
        <p className="text-sm text-[#616161]">
          The owner has not granted support access. They can grant it for 1 to 72 hours in their dashboard’s Access
          settings.
        </p>
      ) : started ? (
        <Banner tone="success">
          <a href={started.enterUrl} className="inline-flex items-center gap-1 font-semibold underline">
            <ExternalLink aria-hidden className="size-4" />
            Open the dashboard now
          </a>{' '}
          (the link works once, for a minute).
        </Banner>
      ) : (
        <div className="space-y-3">
          <p className="text-sm text-[#303030]">
            Granted by {grant.grantedBy} until <strong>{formatDateTime(grant.expiresAt)}</strong>. Everything you do is
            recorded in the store’s audit log under your name.
          </p>
          <details className="kit-confirm" open={answer?.intent === 'support' && !answer.result.ok}>
            <summary className="kit-button kit-button--primary">
              <LifeBuoy aria-hidden className="size-4" />
              Open dashboard as support
            </summary>
            <div className="kit-confirm__panel">
              <ReasonForm intent="support" label="Open dashboard" answer={answer} variant="primary" />
            </div>
          </details>
        </div>
      )}
    </Card>
  );
}

/** The databases a store can be on: those this deployment has (a stale placement's name is not one). */
const movable = (where: StoreWhereabouts) => where.databases.filter((d) => d.configured);
const storesOn = (n: number) => `${COUNT.format(n)} ${n === 1 ? 'store' : 'stores'}`;
const moving = (m: StoreMove | null) => m?.status === 'pending' || m?.status === 'running';

/** The latest move in words: under way (with its progress), done (the hold, the old copy), or failed. */
function MoveStatus({ move }: { move: StoreMove }) {
  const to = move.database ?? 'another database';
  if (moving(move)) {
    return (
      <JobProgress
        label="Store move"
        done={move.done}
        total={move.total}
        refreshTo="."
        hint="The store keeps selling; its writes are held for a few seconds at the switch."
        testId="move-progress"
      >
        {move.status === 'pending'
          ? `Waiting to start the move to ${to}…`
          : `Moving to ${to}: step ${COUNT.format(move.done)} of ${COUNT.format(move.total)}`}
      </JobProgress>
    );
  }
  if (move.status === 'failed') {
    return <Banner tone="critical">{`The last move, to ${to}, failed: ${move.error ?? 'no reason given.'}`}</Banner>;
  }
  const when = move.finishedAt ? ` on ${formatDateTime(move.finishedAt)}` : '';
  const held = move.writeHoldMs === null ? '' : ` Writes were held for ${COUNT.format(move.writeHoldMs)} ms.`;
  return move.sourceCleared === false ? (
    <Banner tone="warning">{`Moved to ${to}${when}.${held} The old copy was not cleared: ${move.error ?? 'no reason given.'}`}</Banner>
  ) : (
    <Banner tone="success">{`Moved to ${to}${when}.${held} The old copy was cleared.`}</Banner>
  );
}

/**
 * Where the store lives and, on a deployment with more than one database, the move to another one:
 * the target and a reason behind a confirm that says what happens, then the job's progress, polled
 * while it runs. A refused move opens again with the refusal in words and what was typed.
 */
function DatabaseCard({
  store,
  where,
  answer,
}: {
  store: OperatorStoreDetail;
  where: StoreWhereabouts;
  answer: Answer;
}) {
  const latest = where.latestMove;
  const running = moving(latest);
  useRevalidateWhileRunning(running);
  const pending = usePending('move');
  const failed = answer?.intent === 'move' && !answer.result.ok ? answer.result : null;
  // The move's form answers for both of its fields.
  const failure = failed as (typeof failed & { fieldErrors: { database?: string; reason?: string } }) | null;
  const targets = movable(where).filter((d) => d.name !== where.database);
  const typed = answer?.intent === 'move' ? (answer as { database?: string; reason?: string }) : null;
  const here = where.databases.find((d) => d.name === where.database);
  return (
    <Card title="Database">
      <div className="space-y-3">
        <p className="text-sm text-[#303030]">
          Lives on <strong>{where.database}</strong>
          {here ? `, with ${storesOn(here.stores)} in all.` : '.'}
        </p>
        {latest && <MoveStatus move={latest} />}
        {!running && targets.length > 0 && (
          <ConfirmDialog
            trigger="Move store"
            title={`Move ${store.name} to another database?`}
            defaultOpen={!!failure}
            triggerVariant="secondary"
            testId="action-move"
            confirm={
              <PostForm className="space-y-3" aria-label="Move store">
                <input type="hidden" name="intent" value="move" />
                {failure && !failure.fieldErrors.reason && !failure.fieldErrors.database && (
                  <Banner>{failure.message}</Banner>
                )}
                <SelectField
                  label="Move to"
                  name="database"
                  id="move-database"
                  required
                  defaultValue={failure ? (typed?.database ?? '') : ''}
                  error={failure?.fieldErrors.database}
                  options={[
                    { value: '', label: 'Choose a database…', disabled: true },
                    ...targets.map((d) => ({ value: d.name, label: `${d.name} (${storesOn(d.stores)})` })),
                  ]}
                />
                <TextAreaField
                  id="reason-move"
                  label="Reason"
                  name="reason"
                  rows={2}
                  required
                  maxLength={500}
                  defaultValue={failure ? (typed?.reason ?? '') : ''}
                  error={failure?.fieldErrors.reason}
                  hint="Kept in the platform’s audit log."
                />
                <Button type="submit" variant="primary" disabled={pending}>
                  {pending ? 'Starting…' : 'Move store'}
                </Button>
              </PostForm>
            }
          >
            Its data is copied while it keeps selling. At the switch its changes (orders, edits) are held for a few
            seconds at most, then go on from the new database; the copy on {where.database} is cleared afterwards.
          </ConfirmDialog>
        )}
      </div>
    </Card>
  );
}
