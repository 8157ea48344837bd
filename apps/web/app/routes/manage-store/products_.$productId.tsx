import { data } from 'react-router';
import { ProductEditor } from '../../components/manage-store/product-editor';
import { dashboardMeta, dashboardRead } from '../../lib/dashboard-page';
import { productEditorAction } from '../../lib/product-editor-action.server';
import type { Route } from './+types/products_.$productId';

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const page = await dashboardRead(request, () => context.api.productEditor(params.productId));
  if (!page) throw data({ message: 'There is no such product in this store.' }, { status: 404 });
  const url = new URL(request.url);
  const notice =
    url.searchParams.get('created') === '1'
      ? 'Product created.'
      : url.searchParams.get('copied') === '1'
        ? 'Copied as a draft. Check its SKU and title, then make it active.'
        : null;
  return { page, notice };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  return productEditorAction(request, context.api, params.productId);
}

export function meta({ matches, data: d }: Route.MetaArgs) {
  return dashboardMeta(matches, d?.page.product ? `Edit ${d.page.product.productName}` : 'Product');
}

/** Edit product: every field of the product, duplicate and delete (archive when orders name it). */
export default function EditProductPage({ loaderData, actionData }: Route.ComponentProps) {
  return <ProductEditor page={loaderData.page} answer={actionData} notice={loaderData.notice} />;
}
