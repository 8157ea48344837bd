import { CustomerPage, customerAction, customerLoader } from '../../components/manage-store/customer-detail';
import { dashboardMeta } from '../../lib/dashboard-page';
import type { Route } from './+types/customers_.$customerId';

/** A customer with an account, by user id (the URL customerHref builds). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  return customerLoader(request, context, { userId: params.customerId });
}

export async function action({ context, request, params }: Route.ActionArgs) {
  return customerAction(request, context, { userId: params.customerId });
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return dashboardMeta(matches, loaderData ? loaderData.customer.name || loaderData.customer.email : 'Customer');
}

export default function AccountCustomerPage({ loaderData, actionData }: Route.ComponentProps) {
  return <CustomerPage customer={loaderData.customer} actionData={actionData} />;
}
