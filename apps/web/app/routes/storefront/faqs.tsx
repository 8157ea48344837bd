import { Link } from 'react-router';
import { PageContainer, PageTitle } from '../../components/ui/page';

export default function FaqsPage() {
  return (
    <PageContainer narrow>
      <PageTitle lead="Answers to the questions shoppers ask us most.">Frequently asked questions</PageTitle>
      <p className="text-slate-700">
        Can't find what you are looking for?{' '}
        <Link to="/contact" className="font-semibold text-brand hover:underline">
          Contact us
        </Link>{' '}
        and we will get back to you.
      </p>
    </PageContainer>
  );
}
