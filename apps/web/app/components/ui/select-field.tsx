/**
 * A labelled select (a Field: hint, error that clears when another option is picked).
 *
 *   <SelectField label="Status" name="status" defaultValue="DRAFT"
 *     options={[{ value: 'DRAFT', label: 'Draft' }, { value: 'ACTIVE', label: 'Active' }]} />
 */
import type { ReactNode, SelectHTMLAttributes } from 'react';
import { Field } from './field';

export interface SelectOption {
  value: string;
  label: string;
}

export function SelectField({
  label,
  name,
  id = name,
  options,
  hint,
  error,
  labelHidden,
  className,
  ...select
}: {
  label: ReactNode;
  name: string;
  id?: string;
  options: readonly SelectOption[];
  hint?: ReactNode;
  error?: string | null | undefined;
  labelHidden?: boolean;
  className?: string;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name' | 'id' | 'className'>) {
  return (
    <Field
      id={id}
      testId={`error-${name}`}
      label={label}
      hint={hint}
      error={error}
      labelHidden={labelHidden}
      className={className}
    >
      {(a11y) => (
        <select id={id} name={name} {...select} {...a11y} className="kit-select">
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
