import { Package } from 'lucide-react';
import { EmptyState, PageContainer, PageTitle } from '../../components/ui/page';

export default function OrderHistory() {
  return (
    <PageContainer>
      <PageTitle>Order history</PageTitle>
      <EmptyState
        icon={<Package className="size-10" />}
        title="No orders yet"
        action={{ to: '/', label: 'Start shopping' }}
      >
        Orders you place will be listed here with their status.
      </EmptyState>
    </PageContainer>
  );
}
