import type { FormOutcome, ReviewEligibility, ReviewField } from '@app/contracts';
import { formatDate, REVIEW_TEXT_MAX, REVIEW_TITLE_MAX } from '@app/contracts/client';
import { PenLine, Star } from 'lucide-react';
import { Link, useNavigation } from 'react-router';
import { Field, FormAlert } from '../ui/form-field';
import { PostForm } from '../ui/post-form';

const WORDS = ['Poor', 'Fair', 'Good', 'Very good', 'Excellent'] as const;

export interface WriteReviewProps {
  productId: string;
  eligibility: ReviewEligibility | null;
  /** Where "Log in to write a review" goes: the login, then back to this product. */
  loginHref: string;
  failure: FormOutcome<ReviewField> | null;
}

/**
 * "Write a review" for a shopper who bought the product; otherwise what stands in the way. A plain
 * form: it works without JavaScript. The text is shown back as text, never as HTML.
 */
export function WriteReview({ productId, eligibility, loginHref, failure }: WriteReviewProps) {
  const navigation = useNavigation();
  if (!eligibility) return null;
  const box = 'mt-10 rounded-xl border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700 sm:p-6';
  if (eligibility.reason === 'sign-in') {
    return (
      <p className={box} data-testid="review-note">
        Bought this?{' '}
        <Link to={loginHref} className="font-medium text-brand hover:underline">
          Log in to write a review
        </Link>
        .
      </p>
    );
  }
  if (eligibility.reason === 'not-bought') {
    return (
      <p className={box} data-testid="review-note">
        Reviews come from shoppers who bought this product, so every one of them is from a real customer.
      </p>
    );
  }
  if (eligibility.review) {
    return (
      <p className={box} data-testid="review-note">
        You reviewed this product on{' '}
        <time dateTime={eligibility.review.createdAt}>{formatDate(eligibility.review.createdAt)}</time>. Thank you!
      </p>
    );
  }
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'review';
  const e = failure?.fieldErrors ?? {};
  return (
    <div className="mt-10 max-w-2xl">
      <h3 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <PenLine aria-hidden className="size-5 text-slate-500" />
        Write a review
      </h3>
      <PostForm className="mt-4 space-y-5" data-testid="review-form">
        <input type="hidden" name="intent" value="review" />
        <input type="hidden" name="productId" value={productId} />
        <FormAlert message={failure?.message} />
        <fieldset aria-describedby={e.rating ? 'rating-error' : undefined}>
          <legend className="mb-2 text-sm font-medium text-slate-800">Your rating</legend>
          <div className="flex flex-wrap gap-2">
            {WORDS.map((word, i) => {
              const n = i + 1;
              return (
                <label
                  key={n}
                  className="flex cursor-pointer items-center gap-1.5 rounded-full border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-800 hover:border-slate-500 has-[:checked]:border-amber-500 has-[:checked]:bg-amber-50 has-[:checked]:font-semibold has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-light"
                >
                  <input
                    type="radio"
                    name="rating"
                    value={n}
                    required
                    className="sr-only"
                    aria-label={`${n} ${n === 1 ? 'star' : 'stars'}: ${word}`}
                  />
                  <Star aria-hidden className="size-4 fill-amber-500 text-amber-500" strokeWidth={0} />
                  <span aria-hidden>
                    {n} · {word}
                  </span>
                </label>
              );
            })}
          </div>
          {e.rating && (
            <p id="rating-error" className="mt-1.5 text-sm font-medium text-red-700" data-testid="error-rating">
              {e.rating}
            </p>
          )}
        </fieldset>
        <Field
          label="Title (optional)"
          name="title"
          required={false}
          error={e.title}
          hint={`Up to ${REVIEW_TITLE_MAX} characters`}
        />
        <div>
          <label htmlFor="review-text" className="mb-1.5 block text-sm font-medium text-slate-800">
            Your review
          </label>
          <textarea
            id="review-text"
            name="text"
            rows={5}
            required
            maxLength={REVIEW_TEXT_MAX}
            aria-invalid={e.text ? true : undefined}
            className={`w-full rounded-md border px-3 py-2 text-[15px] focus:outline-none focus:ring-2 ${
              e.text
                ? 'border-red-600 focus:ring-red-200'
                : 'border-slate-300 focus:border-brand focus:ring-brand-light'
            }`}
          />
          {e.text && (
            <p className="mt-1.5 text-sm font-medium text-red-700" data-testid="error-text">
              {e.text}
            </p>
          )}
        </div>
        <button
          type="submit"
          disabled={busy}
          className="h-11 rounded-md bg-action px-6 text-sm font-semibold text-white hover:opacity-90 disabled:opacity-60 max-sm:w-full"
        >
          {busy ? 'Publishing…' : 'Publish review'}
        </button>
      </PostForm>
    </div>
  );
}
