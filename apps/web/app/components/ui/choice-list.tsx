/**
 * One choice of a few, as radio buttons under a legend (Polaris's ChoiceList), with a hint and an
 * error that clears when another choice is picked.
 *
 *   <ChoiceList title="Discount" name="kind" defaultValue="percent" onChange={setKind}
 *     choices={[{ value: 'percent', label: 'Percentage' }, { value: 'amount', label: 'Fixed amount' }]} />
 *
 * Real radio inputs in a fieldset, so the choice posts without JavaScript and arrow keys move it.
 * A select is the better part for more than four or five choices.
 */
import './kit.css';
import type { ReactNode } from 'react';
import { FieldError, useFieldError } from './field';
import type { SelectOption } from './select-field';

export function ChoiceList({
  title,
  name,
  id = name,
  choices,
  defaultValue,
  hint,
  error,
  onChange,
  inline = true,
}: {
  /** The legend: what is being chosen. */
  title: ReactNode;
  name: string;
  /** Prefix of the radios' ids (`${id}-${value}`) and of the error's and hint's. */
  id?: string;
  choices: readonly SelectOption[];
  defaultValue?: string;
  hint?: ReactNode;
  error?: string | null | undefined;
  onChange?: (value: string) => void;
  /** The choices side by side (default) or one under the other. */
  inline?: boolean;
}) {
  const { shown, watch } = useFieldError(error);
  const describedBy = [shown ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <fieldset className="kit-field" aria-describedby={describedBy || undefined}>
      <legend className="kit-label">{title}</legend>
      <div {...watch}>
        <div className={inline ? 'flex flex-wrap gap-x-4 gap-y-2' : 'flex flex-col gap-2'}>
          {choices.map((c) => (
            <label key={c.value} className="kit-checkbox" htmlFor={`${id}-${c.value}`}>
              <input
                id={`${id}-${c.value}`}
                type="radio"
                name={name}
                value={c.value}
                defaultChecked={defaultValue === c.value}
                onChange={onChange ? () => onChange(c.value) : undefined}
                aria-invalid={shown ? true : undefined}
              />
              <span>{c.label}</span>
            </label>
          ))}
        </div>
        {shown && <FieldError id={`${id}-error`} message={shown} testId={`error-${name}`} />}
        {hint && (
          <p id={`${id}-hint`} className="kit-hint">
            {hint}
          </p>
        )}
      </div>
    </fieldset>
  );
}
