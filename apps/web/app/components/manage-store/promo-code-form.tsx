import type { PromoCodeField, PromoCodeFormValues, PromoStatus } from '@app/contracts';
import { LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { useNavigation } from 'react-router';
import { Badge, type BadgeTone } from '../ui/badge';
import { PostForm } from '../ui/post-form';
import { Card, primaryAction } from './dashboard-layout';

const input =
  'h-9 w-full rounded-lg border border-neutral-300 px-3 text-sm focus:outline-none focus:ring-2 focus:ring-neutral-900/20 aria-[invalid=true]:border-red-600';

function Field({
  name,
  label,
  value,
  error,
  hint,
  required = false,
  type = 'text',
  inputMode,
  maxLength,
  prefix,
  suffix,
}: {
  name: PromoCodeField;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  required?: boolean;
  type?: 'text' | 'date';
  inputMode?: 'decimal' | 'numeric';
  maxLength?: number;
  prefix?: string;
  suffix?: string;
}) {
  const id = `promo-${name}`;
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-neutral-800">
        {label}
        {!required && <span className="ml-1 font-normal text-neutral-500">(optional)</span>}
      </label>
      <div className="flex items-center gap-2">
        {prefix && <span className="text-sm text-neutral-500">{prefix}</span>}
        <input
          id={id}
          name={name}
          type={type}
          inputMode={inputMode}
          defaultValue={value}
          required={required}
          maxLength={maxLength}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={input}
        />
        {suffix && <span className="text-sm text-neutral-500">{suffix}</span>}
      </div>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-neutral-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700" data-testid={`error-${name}`}>
          {error}
        </p>
      )}
    </div>
  );
}

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
  return (
    <Card title={title}>
      <PostForm className="space-y-4" aria-label={title}>
        <input type="hidden" name="intent" value="save" />
        {message && (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {message}
          </p>
        )}
        {creating && (
          <Field
            name="code"
            label="Code"
            required
            maxLength={32}
            value={v('code')}
            error={errors.code}
            hint="What shoppers type in the cart: 3 to 32 letters, digits, dashes or underscores. Saved in capitals; it cannot be changed later."
          />
        )}
        <fieldset>
          <legend className="mb-1 block text-sm font-medium text-neutral-800">Discount</legend>
          <div className="flex flex-wrap gap-4" aria-describedby={errors.kind ? 'promo-kind-error' : undefined}>
            {(
              [
                ['percent', 'Percentage'],
                ['amount', `Fixed amount (${currency})`],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="flex items-center gap-2 text-sm text-neutral-800">
                <input
                  type="radio"
                  name="kind"
                  value={value}
                  defaultChecked={kind === value}
                  onChange={() => setKind(value)}
                  className="size-4"
                />
                {label}
              </label>
            ))}
          </div>
          {errors.kind && (
            <p id="promo-kind-error" className="mt-1 text-sm font-medium text-red-700" data-testid="error-kind">
              {errors.kind}
            </p>
          )}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            name="value"
            label={kind === 'amount' ? 'Amount off' : 'Percentage off'}
            required
            inputMode="decimal"
            maxLength={20}
            value={v('value')}
            error={errors.value}
            suffix={kind === 'amount' ? currency : '%'}
            hint={kind === 'amount' ? 'Like 10.00; never more than the subtotal.' : 'A whole number from 1 to 100.'}
          />
          <Field
            name="minSubtotal"
            label="Minimum subtotal"
            inputMode="decimal"
            maxLength={20}
            value={v('minSubtotal')}
            error={errors.minSubtotal}
            suffix={currency}
            hint="The cart's subtotal before the discount must reach this. Empty: any order."
          />
        </div>
        <Field
          name="description"
          label="Description"
          maxLength={200}
          value={v('description')}
          error={errors.description}
          hint="Shown to shoppers in the cart beside the code, like “10% off your order”."
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            name="startsAt"
            label="Starts on"
            type="date"
            value={v('startsAt')}
            error={errors.startsAt}
            hint="From the start of this day (UTC). Empty: now."
          />
          <Field
            name="endsAt"
            label="Ends on"
            type="date"
            value={v('endsAt')}
            error={errors.endsAt}
            hint="The last day it works (UTC), included. Empty: no end."
          />
          <Field
            name="usageLimit"
            label="Total uses"
            inputMode="numeric"
            maxLength={9}
            value={v('usageLimit')}
            error={errors.usageLimit}
            hint="How many orders may use it in all. Empty: no limit."
          />
          <Field
            name="perCustomerLimit"
            label="Uses per customer"
            inputMode="numeric"
            maxLength={9}
            value={v('perCustomerLimit')}
            error={errors.perCustomerLimit}
            hint="Per account, or per email for guests. Empty: no limit."
          />
        </div>
        <label className="flex items-center gap-2 text-sm text-neutral-800">
          <input type="checkbox" name="active" defaultChecked={v('active') === 'on'} className="size-4" />
          Active: shoppers can use it within its dates and limits
        </label>
        <div className="flex justify-end border-t border-neutral-100 pt-4">
          <button type="submit" className={primaryAction} disabled={saving}>
            {saving && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
            {creating ? (saving ? 'Creating…' : 'Create promo code') : saving ? 'Saving…' : 'Save'}
          </button>
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
