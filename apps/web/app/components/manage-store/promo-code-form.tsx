import type { PromoCodeField, PromoCodeFormValues, PromoStatus } from '@app/contracts';
import { LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { useNavigation } from 'react-router';
import { Badge, type BadgeTone } from '../ui/badge';
import { Banner } from '../ui/banner';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Checkbox } from '../ui/checkbox';
import { ChoiceList } from '../ui/choice-list';
import { PostForm } from '../ui/post-form';
import { TextField } from '../ui/text-field';

/** "Label (optional)": the optional fields say so, the required ones do not need to. */
const optional = (label: string) => (
  <>
    {label}
    <span className="ml-1 font-normal text-neutral-500">(optional)</span>
  </>
);

/** The posted form's text fields (the page function reads only the ones it knows). */
export function promoFormValues(form: FormData): PromoCodeFormValues {
  const values: Record<string, string> = {};
  for (const [k, v] of form.entries()) {
    if (typeof v === 'string' && k !== '_csrf' && k !== 'intent') values[k] = v.slice(0, 300);
  }
  return values;
}

/**
 * A promo code's rules, as the cart applies them: a percentage or an amount off, a minimum
 * subtotal, dates (whole UTC days, the end day included) and usage limits. A plain form: without
 * JavaScript it posts and comes back with the errors next to the fields and the values kept.
 */
export function PromoCodeForm({
  creating,
  currency,
  values,
  errors,
  message,
}: {
  creating: boolean;
  currency: string;
  values: PromoCodeFormValues;
  errors: Partial<Record<PromoCodeField, string>>;
  message: string | null;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const [kind, setKind] = useState(values.kind === 'amount' ? 'amount' : 'percent');
  const v = (f: PromoCodeField) => values[f] ?? '';
  const title = creating ? 'New promo code' : 'Rules';
  const field = (name: PromoCodeField) => ({
    id: `promo-${name}`,
    name,
    defaultValue: v(name),
    error: errors[name],
  });
  return (
    <Card title={title}>
      <PostForm className="space-y-4" aria-label={title}>
        <input type="hidden" name="intent" value="save" />
        {message && <Banner>{message}</Banner>}
        {creating && (
          <TextField
            {...field('code')}
            label="Code"
            required
            maxLength={32}
            hint="What shoppers type in the cart: 3 to 32 letters, digits, dashes or underscores. Saved in capitals; it cannot be changed later."
          />
        )}
        <ChoiceList
          id="promo-kind"
          title="Discount"
          name="kind"
          defaultValue={kind}
          onChange={(k) => setKind(k === 'amount' ? 'amount' : 'percent')}
          error={errors.kind}
          choices={[
            { value: 'percent', label: 'Percentage' },
            { value: 'amount', label: `Fixed amount (${currency})` },
          ]}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            {...field('value')}
            label={kind === 'amount' ? 'Amount off' : 'Percentage off'}
            required
            inputMode="decimal"
            autoComplete="off"
            maxLength={20}
            suffix={kind === 'amount' ? currency : '%'}
            hint={kind === 'amount' ? 'Like 10.00; never more than the subtotal.' : 'A whole number from 1 to 100.'}
          />
          <TextField
            {...field('minSubtotal')}
            label={optional('Minimum subtotal')}
            inputMode="decimal"
            autoComplete="off"
            maxLength={20}
            suffix={currency}
            hint="The cart's subtotal before the discount must reach this. Empty: any order."
          />
        </div>
        <TextField
          {...field('description')}
          label={optional('Description')}
          maxLength={200}
          hint="Shown to shoppers in the cart beside the code, like “10% off your order”."
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            {...field('startsAt')}
            label={optional('Starts on')}
            type="date"
            hint="From the start of this day (UTC). Empty: now."
          />
          <TextField
            {...field('endsAt')}
            label={optional('Ends on')}
            type="date"
            hint="The last day it works (UTC), included. Empty: no end."
          />
          <TextField
            {...field('usageLimit')}
            label={optional('Total uses')}
            inputMode="numeric"
            autoComplete="off"
            maxLength={9}
            hint="How many orders may use it in all. Empty: no limit."
          />
          <TextField
            {...field('perCustomerLimit')}
            label={optional('Uses per customer')}
            inputMode="numeric"
            autoComplete="off"
            maxLength={9}
            hint="Per account, or per email for guests. Empty: no limit."
          />
        </div>
        <Checkbox
          id="promo-active"
          name="active"
          defaultChecked={v('active') === 'on'}
          label="Active: shoppers can use it within its dates and limits"
        />
        <div className="flex justify-end border-t border-neutral-100 pt-4">
          <Button type="submit" variant="primary" disabled={saving}>
            {saving && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
            {creating ? (saving ? 'Creating…' : 'Create promo code') : saving ? 'Saving…' : 'Save'}
          </Button>
        </div>
      </PostForm>
    </Card>
  );
}

const TONES: Record<PromoStatus, BadgeTone> = {
  active: 'success',
  scheduled: 'info',
  expired: 'neutral',
  used_up: 'warning',
  inactive: 'neutral',
};

/** A code's status in the owner's words, coloured as Polaris colours a status. */
export function PromoStatusBadge({ status, label }: { status: PromoStatus; label: string }) {
  return <Badge tone={TONES[status]}>{label}</Badge>;
}
