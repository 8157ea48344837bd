import type { ReactNode } from 'react';

/**
 * Dashboard form fields of the settings editors: a label, the control, a hint, and the error next
 * to the field (it describes the control and marks it invalid). Named by payload path, so the id
 * is the name with dots made safe.
 */
export const fieldId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

const control = (error?: string) =>
  `w-full rounded-lg border bg-white px-3 text-sm text-neutral-900 shadow-sm focus:outline-none focus:ring-2 ${
    error ? 'border-red-600 focus:ring-red-200' : 'border-neutral-300 focus:border-neutral-500 focus:ring-neutral-200'
  }`;

function Described({
  name,
  label,
  hint,
  error,
  children,
  className,
}: {
  name: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: true }) => ReactNode;
  className?: string;
}) {
  const id = fieldId(name);
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-neutral-800">
        {label}
      </label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
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

export function TextField({
  name,
  label,
  defaultValue,
  error,
  hint,
  type = 'text',
  maxLength,
  placeholder,
  autoComplete = 'off',
  className,
  inputMode,
  required,
}: {
  name: string;
  label: string;
  defaultValue?: string | null;
  error?: string;
  hint?: ReactNode;
  type?: string;
  maxLength?: number;
  placeholder?: string;
  autoComplete?: string;
  className?: string;
  inputMode?: 'text' | 'numeric' | 'tel' | 'email' | 'url';
  required?: boolean;
}) {
  return (
    <Described name={name} label={label} hint={hint} error={error} className={className}>
      {(a) => (
        <input
          {...a}
          name={name}
          type={type}
          required={required}
          defaultValue={defaultValue ?? ''}
          maxLength={maxLength}
          placeholder={placeholder}
          autoComplete={autoComplete}
          inputMode={inputMode}
          className={`h-9 ${control(error)}`}
        />
      )}
    </Described>
  );
}

export function TextAreaField({
  name,
  label,
  defaultValue,
  error,
  hint,
  rows = 4,
  maxLength,
}: {
  name: string;
  label: string;
  defaultValue?: string | null;
  error?: string;
  hint?: ReactNode;
  rows?: number;
  maxLength?: number;
}) {
  return (
    <Described name={name} label={label} hint={hint} error={error}>
      {(a) => (
        <textarea
          {...a}
          name={name}
          rows={rows}
          maxLength={maxLength}
          defaultValue={defaultValue ?? ''}
          spellCheck={false}
          className={`py-2 font-mono text-xs ${control(error)}`}
        />
      )}
    </Described>
  );
}

export function SelectField({
  name,
  label,
  defaultValue,
  error,
  hint,
  options,
  className,
}: {
  name: string;
  label: string;
  defaultValue?: string | null;
  error?: string;
  hint?: ReactNode;
  options: { value: string; label: string }[];
  className?: string;
}) {
  return (
    <Described name={name} label={label} hint={hint} error={error} className={className}>
      {(a) => (
        <select {...a} name={name} defaultValue={defaultValue ?? ''} className={`h-9 ${control(error)}`}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Described>
  );
}

/** The form-wide message of a refused save, announced to screen readers. */
export function SaveAlert({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      {message}
    </p>
  );
}

/** A saved draft's message on the page (the toast says it too, with JavaScript), with any warnings. */
export function SavedNote({
  result,
}: {
  result?: { ok: true; message: string; warnings?: { field: string; message: string }[] } | { ok: false } | null;
}) {
  if (!result?.ok) return null;
  return (
    <div
      role="status"
      className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-2 text-sm text-emerald-900"
    >
      <p>{result.message}</p>
      {result.warnings && result.warnings.length > 0 && (
        <ul className="mt-1 list-disc pl-5 text-amber-900">
          {result.warnings.map((w) => (
            <li key={w.field}>{w.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
