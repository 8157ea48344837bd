import { data } from 'react-router';
import { ProductEditor } from '../../components/manage-store/product-editor';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import { productEditorAction } from '../../lib/product-editor-action.server';
import type { Route } from './+types/products_.new';

export async function loader({ context, request }: Route.LoaderArgs) {
  const page = await dashboardRead(request, () => context.api.productEditor(null));
  if (!page) throw data({ message: 'The product editor is not available.' }, { status: 404 });
  return { page };
}

export async function action({ context, request }: Route.ActionArgs) {
  return productEditorAction(request, context.api, null);
}

export function meta({ matches }: Route.MetaArgs) {
  return dashboardMeta(matches, 'Add product');
}

/** Add product: the editor, blank; saving creates the product and opens it. */
export default function NewProductPage({ loaderData, actionData }: Route.ComponentProps) {
  return <ProductEditor page={loaderData.page} answer={actionData} notice={null} />;
}
