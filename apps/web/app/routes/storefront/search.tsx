import { Search } from 'lucide-react';
import { EmptyState, PageContainer, PageTitle } from '../../components/ui/page';
import type { Route } from './+types/search';

export function meta({ params }: Route.MetaArgs) {
  return [{ title: `Search: ${params.searchText}` }, { name: 'robots', content: 'noindex' }];
}

export default function SearchPage({ params }: Route.ComponentProps) {
  return (
    <PageContainer>
      <PageTitle>Search results for “{params.searchText}”</PageTitle>
      <EmptyState
        icon={<Search className="size-10" />}
        title="Search is being set up"
        action={{ to: '/', label: 'Browse the store' }}
      >
        Product search for this store is not available yet. Browse the catalogs from the menu meanwhile.
      </EmptyState>
    </PageContainer>
  );
}
