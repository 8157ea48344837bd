import { FilePlus2, FileText } from 'lucide-react';
import { useMemo } from 'react';
import { Link, redirect, useNavigation } from 'react-router';
import { CmsFlags, CmsStatusBadge } from '../../components/manage-store/cms-badges';
import {
  Card,
  CardEmpty,
  DashboardLayout,
  primaryAction,
  secondaryAction,
} from '../../components/manage-store/dashboard-layout';
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
    <DashboardLayout
      title="Pages"
      description="Content pages such as About us or Shipping. Saved changes stay drafts until you publish them."
      action={
        <Link to="/manage-store/settings/cms/details" className={primaryAction}>
          <FilePlus2 aria-hidden className="size-4" />
          Add page
        </Link>
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
            <p role="alert" className="mt-1 font-medium text-red-800">
              {actionData.message}
            </p>
          )}
          <div className="mt-3 flex flex-wrap gap-2">
            <PostForm>
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="id" value={confirm.id} />
              <button
                type="submit"
                disabled={deleting}
                className="inline-flex h-9 items-center rounded-lg bg-red-700 px-3.5 text-sm font-semibold text-white hover:bg-red-800"
              >
                {deleting ? 'Deleting…' : 'Delete page'}
              </button>
            </PostForm>
            <Link to="/manage-store/settings/cms" className={secondaryAction}>
              Keep it
            </Link>
          </div>
        </section>
      )}
      <Card title="All pages" flush aside={<span className="text-xs text-neutral-500">{pages.length}</span>}>
        {pages.length === 0 ? (
          <CardEmpty icon={<FileText className="size-6" />} title="No pages yet">
            Add an About us, Shipping or Returns page and link it from the top strip, menu or footer.
          </CardEmpty>
        ) : (
          <>
            {/* A phone gets one compact block per page; wider screens the table. */}
            <ul className="divide-y divide-neutral-100 border-t border-neutral-100 md:hidden">
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
            <table className="hidden w-full border-t border-neutral-100 text-sm md:table">
              <thead className="bg-neutral-50 text-left text-xs font-medium text-neutral-600">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">
                    Title
                  </th>
                  <th scope="col" className="px-2 py-2 font-medium">
                    Links
                  </th>
                  <th scope="col" className="px-2 py-2 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-2 py-2 font-medium">
                    Updated
                  </th>
                  <th scope="col" className="px-4 py-2">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-neutral-100">
                {pages.map((p) => (
                  <tr key={p.id}>
                    <td className="min-w-0 px-4 py-2.5">
                      <Link to={editLink(p.id)} className="font-semibold text-neutral-900 hover:underline">
                        {p.pageTitle}
                      </Link>
                      <span className="block truncate text-xs text-neutral-500">/page/details/{p.pageUrl}</span>
                    </td>
                    <td className="px-2 py-2.5">
                      <CmsFlags flags={p.pageLinks} />
                    </td>
                    <td className="px-2 py-2.5">
                      <CmsStatusBadge status={p.status} />
                    </td>
                    <td className="px-2 py-2.5 text-xs whitespace-nowrap text-neutral-600">
                      <time dateTime={p.updatedAt}>{formatDateTime(p.updatedAt)}</time>
                    </td>
                    <td className="px-4 py-2.5 text-right">
                      <DeleteLink id={p.id} title={p.pageTitle} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Card>
    </DashboardLayout>
  );
}

const editLink = (id: string) => `/manage-store/settings/cms/details?id=${encodeURIComponent(id)}`;

/** Delete asks first: the link opens the confirmation above the list. */
function DeleteLink({ id, title }: { id: string; title: string }) {
  return (
    <Link
      to={`?delete=${encodeURIComponent(id)}`}
      className="rounded-md px-2 py-1 text-sm font-medium text-red-700 hover:bg-red-50"
      aria-label={`Delete ${title}`}
    >
      Delete
    </Link>
  );
}
