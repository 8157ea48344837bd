import { createContext, useContext } from 'react';

/** Form parts of the storefront: fields with their errors next to them, and a form-wide alert. */

/**
 * The name of the field a page that comes back refused starts on (`autofocus`): without JavaScript
 * this is how the message next to it is the first thing read. Unset, no field takes focus.
 */
export const FocusField = createContext<string | null>(null);

/**
 * A message a refused page may start on (`FocusField` for a message, not an input): its id, focusable
 * by script, and `autofocus` when it is the one. Moving focus on load is what the linter's rule
 * against autofocus guards against; here the page is the answer to the shopper's own press.
 */
export function messageFocus(id: string, focus: string | null) {
  return { id, tabIndex: -1, ...(focus === id ? { autoFocus: true } : {}) };
}

/** A labelled input; an error shows under it, is its description, and marks it invalid. */
export function Field({
  label,
  name,
  type = 'text',
  autoComplete,
  required = true,
  defaultValue,
  error,
  hint,
  onChange,
}: {
  label: string;
  name: string;
  type?: string;
  autoComplete?: string;
  required?: boolean;
  defaultValue?: string;
  error?: string;
  hint?: string;
  /** What was typed, as it is typed (the field stays uncontrolled: it posts without JavaScript). */
  onChange?: (value: string) => void;
}) {
  const errorId = `${name}-error`;
  const hintId = `${name}-hint`;
  const autoFocus = useContext(FocusField) === name;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={name} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={name}
        name={name}
        type={type}
        autoComplete={autoComplete}
        required={required}
        defaultValue={defaultValue}
        {...(onChange ? { onChange: (ev: { target: { value: string } }) => onChange(ev.target.value) } : {})}
        // biome-ignore lint/a11y/noAutofocus: only on a page that answers a refused post (FocusField).
        autoFocus={autoFocus || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`h-11 w-full rounded-md border px-3 text-[15px] focus:outline-none focus:ring-2 ${
          error ? 'border-red-600 focus:ring-red-200' : 'border-slate-300 focus:border-brand focus:ring-brand-light'
        }`}
      />
      {hint && !error && (
        <p id={hintId} className="mt-1.5 text-sm text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-red-700" data-testid={`error-${name}`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A form-wide problem (wrong password, too many tries), announced to screen readers. */
export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
      data-testid="form-error"
    >
      {message}
    </p>
  );
}

export const submitClass =
  'h-11 w-full rounded-md bg-action text-sm font-semibold text-white hover:opacity-90 disabled:opacity-60';
