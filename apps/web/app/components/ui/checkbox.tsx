/**
 * A checkbox with its label beside it, an optional hint under it, and an error that clears when it
 * is changed.
 *
 *   <Checkbox label="Track stock" name="trackStock" defaultChecked hint="Sold out at zero." />
 */
import './kit.css';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { FieldError, useFieldError } from './field';

export function Checkbox({
  label,
  name,
  id = name,
  hint,
  error,
  ...input
}: {
  label: ReactNode;
  name: string;
  id?: string;
  hint?: ReactNode;
  error?: string | null | undefined;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'id' | 'type' | 'className'>) {
  const { shown, watch } = useFieldError(error);
  const describedBy = [shown ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <div className="kit-field" {...watch}>
      <label className="kit-checkbox" htmlFor={id}>
        <input
          id={id}
          name={name}
          type="checkbox"
          {...input}
          aria-describedby={describedBy || undefined}
          aria-invalid={shown ? true : undefined}
        />
        <span>{label}</span>
      </label>
      {hint && (
        <p id={`${id}-hint`} className="kit-hint pl-6">
          {hint}
        </p>
      )}
      {shown && <FieldError id={`${id}-error`} message={shown} testId={`error-${id}`} />}
    </div>
  );
}
