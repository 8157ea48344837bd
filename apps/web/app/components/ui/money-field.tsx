/**
 * A price: integer minor units in, the currency's decimal text in the box, posted as that text.
 *
 *   <MoneyField label="Price" name="listPrice" currency="USD" cents={1250} error={errors.listPrice} />
 *   <MoneyField label="Price" name="listPrice" currency="USD" text={refused.listPrice} />   // echo
 *
 * The box checks itself with the server's parser when focus leaves it ("12.345" in USD says it has
 * too many decimals) and tidies a good price ("12.5" -> "12.50").
 */
import type { FocusEvent, ReactNode } from 'react';
import { Field } from './field';
import { moneyProblem, moneyText, normalizedMoneyText } from './money';

export function MoneyField({
  label,
  name,
  id = name,
  currency,
  cents,
  text,
  hint,
  error,
  required = false,
  labelHidden,
}: {
  label: ReactNode;
  name: string;
  id?: string;
  currency: string;
  /** The saved amount in minor units; null for none. */
  cents?: number | null;
  /** What was typed, when a refused form comes back (wins over `cents`). */
  text?: string;
  hint?: ReactNode;
  error?: string | null | undefined;
  required?: boolean;
  labelHidden?: boolean;
}) {
  const check = (value: string) => moneyProblem(value, currency, required);
  const tidy = (e: FocusEvent<HTMLInputElement>) => {
    const next = normalizedMoneyText(e.currentTarget.value, currency);
    if (next !== e.currentTarget.value) e.currentTarget.value = next;
  };
  return (
    <Field
      id={id}
      testId={`error-${name}`}
      label={label}
      hint={hint}
      error={error}
      check={check}
      labelHidden={labelHidden}
    >
      {(a11y) => (
        <div className="kit-affix">
          <span className="kit-affix__text">{currency}</span>
          <input
            id={id}
            name={name}
            inputMode="decimal"
            autoComplete="off"
            placeholder={moneyText(0, currency)}
            defaultValue={text ?? moneyText(cents, currency)}
            onBlur={tidy}
            {...a11y}
            className="kit-input kit-input--number"
          />
        </div>
      )}
    </Field>
  );
}
