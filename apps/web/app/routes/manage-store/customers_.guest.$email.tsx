import { CustomerPage, customerAction, customerLoader } from '../../components/manage-store/customer-detail';
import { dashboardMeta } from '../../lib/dashboard-page';
import type { Route } from './+types/customers_.guest.$email';

/** A guest (ordered without an account), by the email of their orders (the URL customerHref builds). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  return customerLoader(request, context, { email: params.email.slice(0, 320) });
}

export async function action({ context, request, params }: Route.ActionArgs) {
  return customerAction(request, context, { email: params.email.slice(0, 320) });
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return dashboardMeta(matches, loaderData ? loaderData.customer.name || loaderData.customer.email : 'Customer');
}

export default function GuestCustomerPage({ loaderData, actionData }: Route.ComponentProps) {
  return <CustomerPage customer={loaderData.customer} actionData={actionData} />;
}
