import { FilePlus2, FileText } from 'lucide-react';
import { useMemo } from 'react';
import { Link, redirect, useNavigation } from 'react-router';
import { CmsFlags, CmsStatusBadge } from '../../components/manage-store/cms-badges';
import { Banner } from '../../components/ui/banner';
import { Button, ButtonLink, buttonClass } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { DataTable } from '../../components/ui/data-table';
import { AdminEmptyState } from '../../components/ui/empty-state';
import { AdminPage } from '../../components/ui/page-header';
import { PostForm } from '../../components/ui/post-form';
import { dashboardMeta, dashboardRead, formatDateTime } from '../../lib/dashboard-page';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/settings.cms';

export async function loader({ context, request }: Route.LoaderArgs) {
  const pages = await dashboardRead(request, () => context.api.cmsList());
  const url = new URL(request.url);
  const confirmId = url.searchParams.get('delete');
  return {
    pages,
    // "Delete" asks first: ?delete=<id> shows the confirmation (a plain link, so no JavaScript is needed).
    confirm: confirmId ? (pages.find((p) => p.id === confirmId) ?? null) : null,
    deleted: url.searchParams.get('deleted') === '1',
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const id = String(form.get('id') ?? '');
  const result = await dashboardRead(request, () => context.api.deleteCmsPage(id));
  if (result.ok) throw redirect('/manage-store/settings/cms?deleted=1');
  return result;
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Pages');
}

/** The store's content pages: what each is called, where it lives and links, and whether it is live. */
export default function CmsListPage({ loaderData, actionData }: Route.ComponentProps) {
  const { pages, confirm, deleted } = loaderData;
  const navigation = useNavigation();
  const deleting = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'delete';
  const toast = useMemo(() => (deleted ? { ok: true, message: 'Page deleted.' } : null), [deleted]);
  useActionToast(toast);
  return (
    <AdminPage
      title="Pages"
      description="Content pages such as About us or Shipping. Saved changes stay drafts until you publish them."
      primaryAction={
        <ButtonLink to="/manage-store/settings/cms/details" variant="primary">
          <FilePlus2 aria-hidden className="size-4" />
          Add page
        </ButtonLink>
      }
    >
      {confirm && (
        <section
          aria-labelledby="confirm-delete"
          className="rounded-xl border border-red-300 bg-red-50 px-4 py-3 text-sm"
        >
          <h2 id="confirm-delete" className="font-semibold text-red-950">
            Delete “{confirm.pageTitle}”?
          </h2>
          <p className="mt-1 text-red-900">
            Shoppers will no longer find /page/details/{confirm.pageUrl}, and its unpublished changes go too.
          </p>
          {actionData && !actionData.ok && (
            <div className="mt-2">
              <Banner>{actionData.message}</Banner>
            </div>
          )}
          <div className="mt-3 flex flex-wrap gap-2">
            <PostForm>
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="id" value={confirm.id} />
              <Button type="submit" variant="critical" disabled={deleting}>
                {deleting ? 'Deleting…' : 'Delete page'}
              </Button>
            </PostForm>
            <ButtonLink to="/manage-store/settings/cms">Keep it</ButtonLink>
          </div>
        </section>
      )}
      <Card title="All pages" flush aside={<span className="text-xs text-neutral-500">{pages.length}</span>}>
        {pages.length === 0 ? (
          <AdminEmptyState icon={<FileText className="size-6" />} title="No pages yet">
            Add an About us, Shipping or Returns page and link it from the top strip, menu or footer.
          </AdminEmptyState>
        ) : (
          <>
            {/* A phone gets one compact block per page; wider screens the table. */}
            <ul className="divide-y divide-neutral-100 md:hidden">
              {pages.map((p) => (
                <li key={p.id} className="px-4 py-2.5 text-sm">
                  <Link to={editLink(p.id)} className="font-semibold text-neutral-900 hover:underline">
                    {p.pageTitle}
                  </Link>
                  <span className="block truncate text-xs text-neutral-500">/page/details/{p.pageUrl}</span>
                  <div className="mt-1.5 flex flex-wrap items-center gap-1.5">
                    <CmsStatusBadge status={p.status} />
                    <CmsFlags flags={p.pageLinks} />
                  </div>
                  <div className="mt-1 flex items-center justify-between gap-2">
                    <time dateTime={p.updatedAt} className="text-xs text-neutral-600">
                      Updated {formatDateTime(p.updatedAt)}
                    </time>
                    <DeleteLink id={p.id} title={p.pageTitle} />
                  </div>
                </li>
              ))}
            </ul>
            <div className="hidden md:block">
              <DataTable
                label="All pages"
                rows={pages}
                rowKey={(p) => p.id}
                minWidth="0"
                columns={[
                  {
                    header: 'Title',
                    cell: (p) => (
                      <>
                        <Link to={editLink(p.id)} className="font-semibold text-neutral-900 hover:underline">
                          {p.pageTitle}
                        </Link>
                        <span className="block truncate text-xs text-neutral-500">/page/details/{p.pageUrl}</span>
                      </>
                    ),
                  },
                  { header: 'Links', cell: (p) => <CmsFlags flags={p.pageLinks} /> },
                  { header: 'Status', cell: (p) => <CmsStatusBadge status={p.status} /> },
                  {
                    header: 'Updated',
                    className: 'whitespace-nowrap text-xs text-neutral-600',
                    cell: (p) => <time dateTime={p.updatedAt}>{formatDateTime(p.updatedAt)}</time>,
                  },
                  {
                    header: <span className="sr-only">Actions</span>,
                    align: 'end',
                    cell: (p) => <DeleteLink id={p.id} title={p.pageTitle} />,
                  },
                ]}
              />
            </div>
          </>
        )}
      </Card>
    </AdminPage>
  );
}

const editLink = (id: string) => `/manage-store/settings/cms/details?id=${encodeURIComponent(id)}`;

/** Delete asks first: the link opens the confirmation above the list. */
function DeleteLink({ id, title }: { id: string; title: string }) {
  return (
    <Link
      to={`?delete=${encodeURIComponent(id)}`}
      className={buttonClass('critical-outline', true)}
      aria-label={`Delete ${title}`}
    >
      Delete
    </Link>
  );
}
