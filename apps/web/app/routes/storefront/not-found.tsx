import { data, isRouteErrorResponse, useRouteError } from 'react-router';
import { EmptyState, PageContainer } from '../../components/ui/page';

export function loader() {
  throw data({ message: 'Page not found' }, { status: 404 });
}

export default function NotFound() {
  return null;
}

/** Every 404 below the frame: the header and footer stay, so the shopper can go on. */
export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return <NotFoundBody status={status} />;
}

export function NotFoundBody({ status }: { status: number }) {
  return (
    <PageContainer narrow>
      <EmptyState
        title={status === 404 ? 'We could not find that page' : 'Something went wrong, please try again.'}
        action={{ to: '/', label: 'Go to the home page' }}
      >
        {status === 404 ? 'The link may be old, or the page may have moved.' : 'Please try again in a moment.'}
      </EmptyState>
    </PageContainer>
  );
}
