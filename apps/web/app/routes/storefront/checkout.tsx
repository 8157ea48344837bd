import { ShoppingBag } from 'lucide-react';
import { EmptyState, PageContainer, PageTitle } from '../../components/ui/page';

export default function CheckoutPage() {
  return (
    <PageContainer narrow>
      <PageTitle>Checkout</PageTitle>
      <EmptyState
        icon={<ShoppingBag className="size-10" />}
        title="There is nothing to check out"
        action={{ to: '/', label: 'Continue shopping' }}
      >
        Add products to your cart, then come back here to pay.
      </EmptyState>
    </PageContainer>
  );
}
