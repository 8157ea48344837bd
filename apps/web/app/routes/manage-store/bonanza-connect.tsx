import type { BonanzaFormValues, MarketplaceActionResult } from '@app/contracts';
import { ArrowLeft, CheckCircle2, Store } from 'lucide-react';
import { data, Link, useNavigation } from 'react-router';
import { BonanzaForm } from '../../components/manage-store/marketplace/bonanza-form';
import { FeedCard, SkippedCard } from '../../components/manage-store/marketplace/feed-card';
import { Badge } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/bonanza-connect';
import type { DashboardHandle } from './guard';

/** Full screen, as the clients' layout rules have it: no store frame, no dashboard menu. */
export const handle: DashboardHandle = { dashboardFrame: 'full-screen' };

export async function loader({ context, request }: Route.LoaderArgs) {
  return dashboardRead(request, () => context.api.marketplacePage());
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Marketplace connect');
}

type ActionAnswer = { intent: string; result: MarketplaceActionResult; values: BonanzaFormValues | null };

export async function action({ context, request }: Route.ActionArgs) {
  return dashboardRead(request, async () => {
    const form = await request.formData();
    const intent = String(form.get('intent') ?? '');
    let result: MarketplaceActionResult;
    let values: BonanzaFormValues | null = null;
    if (intent === 'disconnect') result = await context.api.disconnectBonanza();
    else if (intent === 'regenerate') result = await context.api.regenerateFeedUrl();
    else {
      const field = (k: string) => String(form.get(k) ?? '').slice(0, 400);
      const submitted = { accountEmail: field('accountEmail'), boothName: field('boothName'), token: field('token') };
      result = await context.api.saveBonanzaConnection(submitted);
      // Typed values come back on an error, but never the token.
      values = { accountEmail: submitted.accountEmail, boothName: submitted.boothName };
    }
    return data<ActionAnswer>({ intent, result, values }, { status: result.ok ? 200 : result.status });
  });
}

/**
 * Where the owner connects the store to the Bonanza marketplace and finds the product feed
 * Bonanza imports: the connection (its token never shown), the feed URL, and what the feed leaves out.
 */
export default function BonanzaConnectPage({ loaderData: state, actionData }: Route.ComponentProps) {
  const answer = actionData as ActionAnswer | undefined;
  useActionToast(answer?.result);
  const failure = answer && !answer.result.ok ? answer.result : null;
  const formFailure = failure && answer?.intent === 'connect' ? failure : null;
  const connection = state.connection;
  const connected = connection?.status === 'connected';
  return (
    <>
      <div className="mx-auto mb-3 w-full max-w-5xl">
        <Link
          to="/manage-store"
          className="inline-flex items-center gap-1 text-sm font-medium text-neutral-700 hover:underline"
        >
          <ArrowLeft aria-hidden className="size-4" />
          Back to dashboard
        </Link>
      </div>
      <AdminPage
        title="Marketplace connect"
        description="Sell your products on Bonanza too: connect your booth, then give Bonanza your product feed."
      >
        {failure && !formFailure && <Banner>{failure.message}</Banner>}
        {connected ? (
          <>
            <ConnectedCard
              connection={connection}
              values={answer?.intent === 'connect' ? answer.values : null}
              errors={formFailure?.fieldErrors ?? {}}
              message={formFailure?.message ?? null}
            />
            <FeedCard feed={state.feed} />
            <SkippedCard feed={state.feed} />
          </>
        ) : (
          <Card title="Connect to Bonanza">
            <div className="mb-4 flex items-start gap-3 text-sm text-neutral-600">
              <Store aria-hidden className="mt-0.5 size-5 shrink-0 text-neutral-400" />
              <p>
                {connection
                  ? 'Your store is not connected to Bonanza any more. Connect again to share your products; your feed URL comes back as it was.'
                  : 'Enter your Bonanza account, your booth’s name and the API token Bonanza gave you. You then get a product feed Bonanza imports your products from.'}
              </p>
            </div>
            <BonanzaForm
              connection={connection}
              values={answer?.values ?? null}
              errors={formFailure?.fieldErrors ?? {}}
              message={formFailure?.message ?? null}
              primary
            />
          </Card>
        )}
      </AdminPage>
    </>
  );
}

function ConnectedCard({
  connection,
  values,
  errors,
  message,
}: {
  connection: NonNullable<Route.ComponentProps['loaderData']['connection']>;
  values: BonanzaFormValues | null;
  errors: Record<string, string | undefined>;
  message: string | null;
}) {
  const navigation = useNavigation();
  const disconnecting = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'disconnect';
  const editing = Boolean(message) || Object.keys(errors).length > 0;
  const rows: [string, string][] = [
    ['Account email', connection.accountEmail],
    ['Booth name', connection.boothName],
    ['API token', connection.tokenSet ? `${connection.tokenMask ?? ''} Stored` : 'Not stored'],
    ['Connected since', formatDateTime(connection.connectedAt)],
  ];
  return (
    <Card
      title="Bonanza"
      aside={
        <Badge tone="success" data-testid="bonanza-status">
          <CheckCircle2 aria-hidden className="size-3.5" />
          Connected
        </Badge>
      }
    >
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2" data-testid="bonanza-connection">
        {rows.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs text-neutral-500">{label}</dt>
            <dd className="truncate font-medium text-neutral-900">{value}</dd>
          </div>
        ))}
      </dl>
      <details className="mt-4 border-t border-neutral-100 pt-3" open={editing}>
        <summary className="cursor-pointer text-sm font-medium text-neutral-800">Change the connection</summary>
        <div className="mt-3">
          <BonanzaForm connection={connection} values={values} errors={errors} message={message} primary={false} />
        </div>
      </details>
      <div className="mt-4 border-t border-neutral-100 pt-4">
        <ConfirmDialog
          trigger={disconnecting ? 'Disconnecting…' : 'Disconnect from Bonanza'}
          title="Disconnect from Bonanza?"
          confirm={
            <PostForm>
              <input type="hidden" name="intent" value="disconnect" />
              <Button type="submit" variant="critical" disabled={disconnecting}>
                Disconnect
              </Button>
            </PostForm>
          }
        >
          The token is erased and the feed URL stops answering. Connect again later and the feed URL comes back as it
          was.
        </ConfirmDialog>
      </div>
    </Card>
  );
}
