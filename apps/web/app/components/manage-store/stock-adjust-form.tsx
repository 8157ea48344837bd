import type { StockAdjustField, StockAdjustReason } from '@app/contracts';
import { LoaderCircle } from 'lucide-react';
import { useNavigation } from 'react-router';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { PostForm } from '../ui/post-form';
import { SelectField } from '../ui/select-field';
import { NumberField, TextField } from '../ui/text-field';

/** The form's fields as typed, and the variant it adjusts (a hidden field; absent for a product's only variant). */
export type AdjustValues = Partial<Record<StockAdjustField | 'variantId', string>>;

/**
 * One product's (or one of its variants') "Adjust" form: a reason, add/take or set to a count, how many, a note. A plain POST
 * form (intent=adjust), so it works without JavaScript; the errors of the row that was sent show
 * next to its fields, with what was typed kept, and each clears once its field is changed. Adjust is
 * the form's only submit button, so Enter in Quantity or Note sends it.
 */
export function StockAdjustForm({
  productId,
  variantId,
  productName,
  reasons,
  errors,
  values,
  action,
}: {
  productId: string;
  /** The variant adjusted; absent for a product's only variant. */
  variantId?: string | undefined;
  /** The name in the form's label: "Pendant · Brass" for a variant. */
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
  const id = (f: string) => `${f}-${variantId ?? productId}`;
  return (
    <PostForm
      action={action}
      className="grid grid-cols-2 items-end gap-3 sm:grid-cols-[auto_auto_6rem_minmax(8rem,1fr)_auto]"
      aria-label={`Adjust stock of ${productName}`}
      preventScrollReset
    >
      <input type="hidden" name="intent" value="adjust" />
      <input type="hidden" name="productId" value={productId} />
      {variantId && <input type="hidden" name="variantId" value={variantId} />}
      <SelectField
        id={id('reason')}
        label="Reason"
        name="reason"
        defaultValue={values?.reason ?? 'RECEIVED'}
        error={errors?.reason}
        options={reasons}
      />
      <SelectField
        id={id('mode')}
        label="How"
        name="mode"
        defaultValue={values?.mode === 'set' ? 'set' : 'delta'}
        options={[
          { value: 'delta', label: 'Add (or −take)' },
          { value: 'set', label: 'Set count to' },
        ]}
      />
      <NumberField
        id={id('quantity')}
        label="Quantity"
        name="quantity"
        allowSign
        required
        defaultValue={values?.quantity ?? ''}
        error={errors?.quantity}
      />
      <TextField
        id={id('note')}
        label="Note (optional)"
        name="note"
        maxLength={500}
        defaultValue={values?.note ?? ''}
        error={errors?.note}
        className="col-span-2 sm:col-span-1"
      />
      <Button type="submit" disabled={pending} className="col-span-2 justify-self-start sm:col-span-1">
        {pending && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
        Adjust
      </Button>
    </PostForm>
  );
}

/** Stock as a badge: out, low (at or below the store's threshold) or how many. */
export function StockLevel({ stock, threshold }: { stock: number; threshold: number }) {
  if (stock <= 0) {
    return (
      <Badge tone="critical" data-stock={0}>
        Out of stock
      </Badge>
    );
  }
  if (stock <= threshold) {
    return (
      <Badge tone="warning" data-stock={stock}>
        {stock} left · low
      </Badge>
    );
  }
  return <Badge data-stock={stock}>{stock} in stock</Badge>;
}

/** The fields of an adjust form as the action reads them. */
export function adjustValues(form: FormData): AdjustValues {
  const get = (k: string) => String(form.get(k) ?? '').slice(0, 600);
  const variantId = get('variantId');
  return {
    reason: get('reason'),
    mode: get('mode'),
    quantity: get('quantity'),
    note: get('note'),
    ...(variantId ? { variantId } : {}),
  };
}
