import { ChevronDown, CircleHelp } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState, PageContainer, PageTitle } from '../../components/ui/page';
import type { Route } from './+types/faqs';

// No `meta` here: the title is the store's own, from its SEO config (root meta has an entry for /faqs).
export async function loader({ context }: Route.LoaderArgs) {
  return { faqs: await context.api.faqs() };
}

const paragraphs = (s: string) =>
  s
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);

/** A native <details> accordion: keyboard and screen-reader support for free, no JavaScript needed. */
export default function FaqsPage({ loaderData }: Route.ComponentProps) {
  const { questions } = loaderData.faqs;
  return (
    <PageContainer narrow>
      <PageTitle lead="Answers to the questions shoppers ask us most.">Help &amp; FAQs</PageTitle>
      {questions.length === 0 ? (
        <EmptyState
          icon={<CircleHelp className="size-10" />}
          title="No questions yet"
          action={{ to: '/contact', label: 'Contact us' }}
        >
          Ask us anything: we answer every message.
        </EmptyState>
      ) : (
        <div className="divide-y divide-slate-200 border-y border-slate-200" data-testid="faq-list">
          {questions.map((q) => (
            <details key={q.faqId} className="group" data-testid="faq">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 py-5 text-left font-semibold text-slate-900 hover:text-brand [&::-webkit-details-marker]:hidden">
                <span>{q.question}</span>
                <ChevronDown
                  aria-hidden
                  className="size-5 shrink-0 text-slate-500 transition-transform group-open:rotate-180"
                />
              </summary>
              <div className="space-y-3 pr-8 pb-6 leading-7 text-slate-700">
                {paragraphs(q.answer).map((p, i) => (
                  <p key={i}>{p}</p>
                ))}
              </div>
            </details>
          ))}
        </div>
      )}
      <div className="mt-10 rounded-xl bg-slate-50 p-6">
        <h2 className="font-semibold text-slate-900">Still have a question?</h2>
        <p className="mt-1 text-slate-700">
          <Link to="/contact" className="font-semibold text-brand underline underline-offset-2">
            Contact us
          </Link>{' '}
          and we will get back to you.
        </p>
      </div>
    </PageContainer>
  );
}
