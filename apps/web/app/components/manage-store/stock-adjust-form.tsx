import type { StockAdjustField, StockAdjustReason } from '@app/contracts';
import { LoaderCircle } from 'lucide-react';
import { useNavigation } from 'react-router';
import { PostForm } from '../ui/post-form';
import { secondaryAction } from './dashboard-layout';

export type AdjustValues = Partial<Record<StockAdjustField, string>>;

const input =
  'h-9 rounded-lg border bg-white px-2.5 text-sm text-neutral-900 focus:outline-none focus:ring-2 focus:ring-neutral-300';
const ok = 'border-neutral-300';
const bad = 'border-red-600';

/**
 * One product's "Adjust" form: a reason, add/take or set to a count, how many, a note. A plain POST
 * form (intent=adjust), so it works without JavaScript; the errors of the row that was sent show
 * next to its fields, with what was typed kept.
 */
export function StockAdjustForm({
  productId,
  productName,
  reasons,
  errors,
  values,
  action,
}: {
  productId: string;
  productName: string;
  reasons: { value: StockAdjustReason; label: string }[];
  errors?: Partial<Record<StockAdjustField, string>> | undefined;
  values?: AdjustValues | undefined;
  /** Where the form posts; the current page when absent. */
  action?: string;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state !== 'idle' &&
    navigation.formMethod === 'POST' &&
    navigation.formData?.get('productId') === productId &&
    navigation.formData?.get('intent') === 'adjust';
  const id = (f: string) => `${f}-${productId}`;
  const err = (f: StockAdjustField) => errors?.[f];
  return (
    <PostForm
      action={action}
      className="flex flex-wrap items-start gap-2"
      aria-label={`Adjust stock of ${productName}`}
      preventScrollReset
    >
      <input type="hidden" name="intent" value="adjust" />
      <input type="hidden" name="productId" value={productId} />
      <div className="flex flex-col">
        <label htmlFor={id('reason')} className="sr-only">
          Reason
        </label>
        <select
          id={id('reason')}
          name="reason"
          defaultValue={values?.reason ?? 'RECEIVED'}
          aria-invalid={err('reason') ? true : undefined}
          className={`${input} ${err('reason') ? bad : ok}`}
        >
          {reasons.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col">
        <label htmlFor={id('mode')} className="sr-only">
          How
        </label>
        <select
          id={id('mode')}
          name="mode"
          defaultValue={values?.mode === 'set' ? 'set' : 'delta'}
          className={`${input} ${ok}`}
        >
          <option value="delta">Add (or −take)</option>
          <option value="set">Set count to</option>
        </select>
      </div>
      <div className="flex flex-col">
        <label htmlFor={id('quantity')} className="sr-only">
          Quantity
        </label>
        <input
          id={id('quantity')}
          name="quantity"
          inputMode="numeric"
          pattern="[+\-]?[0-9]*"
          required
          placeholder="Qty"
          defaultValue={values?.quantity ?? ''}
          aria-invalid={err('quantity') ? true : undefined}
          aria-describedby={err('quantity') ? id('quantity-error') : undefined}
          className={`${input} w-20 tabular-nums ${err('quantity') ? bad : ok}`}
        />
      </div>
      <div className="flex min-w-0 flex-1 flex-col">
        <label htmlFor={id('note')} className="sr-only">
          Note
        </label>
        <input
          id={id('note')}
          name="note"
          maxLength={500}
          placeholder="Note (optional)"
          defaultValue={values?.note ?? ''}
          aria-invalid={err('note') ? true : undefined}
          className={`${input} min-w-32 ${err('note') ? bad : ok}`}
        />
      </div>
      <button type="submit" className={secondaryAction} disabled={pending}>
        {pending && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
        Adjust
      </button>
      {(err('quantity') || err('reason') || err('note')) && (
        <p
          id={id('quantity-error')}
          className="basis-full text-sm font-medium text-red-700"
          data-testid={`adjust-error-${productId}`}
        >
          {err('quantity') ?? err('reason') ?? err('note')}
        </p>
      )}
    </PostForm>
  );
}

/** Stock as a badge: out, low (at or below the store's threshold) or how many. */
export function StockLevel({ stock, threshold }: { stock: number; threshold: number }) {
  if (stock <= 0) {
    return (
      <span className="shrink-0 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800" data-stock={0}>
        Out of stock
      </span>
    );
  }
  if (stock <= threshold) {
    return (
      <span
        className="shrink-0 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 tabular-nums"
        data-stock={stock}
      >
        {stock} left · low
      </span>
    );
  }
  return (
    <span
      className="shrink-0 rounded-full bg-neutral-100 px-2 py-0.5 text-xs font-semibold text-neutral-800 tabular-nums"
      data-stock={stock}
    >
      {stock} in stock
    </span>
  );
}

/** The fields of an adjust form as the action reads them. */
export function adjustValues(form: FormData): AdjustValues {
  const get = (k: string) => String(form.get(k) ?? '').slice(0, 600);
  return { reason: get('reason'), mode: get('mode'), quantity: get('quantity'), note: get('note') };
}
