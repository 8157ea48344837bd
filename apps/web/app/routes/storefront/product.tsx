import { data } from 'react-router';
import type { Route } from './+types/product';

// Product detail comes with the catalog work; until then every product URL is an honest 404.
export function loader({ params }: Route.LoaderArgs) {
  throw data({ message: `Product ${params.productId} not found` }, { status: 404 });
}

export default function ProductPage() {
  return null;
}
export { ErrorBoundary } from './not-found';
