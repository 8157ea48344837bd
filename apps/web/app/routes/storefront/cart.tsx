import { ShoppingBag } from 'lucide-react';
import { EmptyState, PageContainer, PageTitle } from '../../components/ui/page';

export default function CartPage() {
  return (
    <PageContainer>
      <PageTitle>Shopping cart</PageTitle>
      <EmptyState
        icon={<ShoppingBag className="size-10" />}
        title="Your cart is empty"
        action={{ to: '/', label: 'Continue shopping' }}
      >
        Items you add to your cart will appear here.
      </EmptyState>
    </PageContainer>
  );
}
