/**
 * Field: a label, the control, a hint and an error, wired for screen readers.
 *
 *   <Field id="sku" label="SKU" hint="Letters and digits" error={errors.sku}>
 *     {(a11y) => <input id="sku" name="sku" className="kit-input" {...a11y} />}
 *   </Field>
 *
 * The error is the control's description (aria-describedby, error first, then hint) and marks it
 * invalid. It goes as soon as the owner changes the refused value (field-error.ts), without waiting
 * for the next save; a `check` shows the field's own message for a changed value that is still
 * wrong. Most pages use the ready inputs (text-field.tsx, money-field.tsx, select-field.tsx,
 * checkbox.tsx) rather than Field itself. No page styles its own inputs: use these.
 */
import './kit.css';
import { type FocusEvent, type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { fieldSnapshot, visibleError } from './field-error';

export interface FieldA11y {
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

export function Field({
  id,
  label,
  labelHidden = false,
  hint,
  error,
  check,
  className,
  testId,
  children,
}: {
  /** The control's id; the error is `${id}-error`, the hint `${id}-hint`. */
  id: string;
  label: ReactNode;
  /** The label is read but not shown (a table cell's input, say). */
  labelHidden?: boolean;
  hint?: ReactNode;
  /** The server's message for the value it refused. */
  error?: string | null | undefined;
  /** The field's own check of a changed value: a message, or null when it is fine. */
  check?: (value: string) => string | null;
  className?: string;
  /** data-testid of the error (defaults to `error-${id}`). */
  testId?: string;
  children: (a11y: FieldA11y) => ReactNode;
}) {
  const { shown, watch } = useFieldError(error, check);
  const describedBy = [shown ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <div className={`kit-field ${className ?? ''}`} {...watch}>
      <label htmlFor={id} className={labelHidden ? 'sr-only' : 'kit-label'}>
        {label}
      </label>
      {children({
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(shown ? { 'aria-invalid': true as const } : {}),
      })}
      {shown && <FieldError id={`${id}-error`} message={shown} testId={testId ?? `error-${id}`} />}
      {hint && (
        <p id={`${id}-hint`} className="kit-hint">
          {hint}
        </p>
      )}
    </div>
  );
}

export function FieldError({ id, message, testId }: { id: string; message: string; testId?: string }) {
  return (
    <p id={id} className="kit-error" data-testid={testId}>
      {message}
    </p>
  );
}

/**
 * The error a field shows now, and what to spread on the element that holds its controls: input
 * events bubble to it, and it compares its controls with what they held when the error came (taken
 * once the page has hydrated, and again for every new answer). Typing only ever hides an error (the
 * refused value is gone); when focus leaves the field its own check, if any, judges the new value.
 */
export function useFieldError(error: string | null | undefined, check?: (value: string) => string | null) {
  const ref = useRef<HTMLDivElement>(null);
  const refused = useRef<string | null>(null);
  /** What the field held when its form was last posted: the value the server's answer judges. */
  const posted = useRef<string | null>(null);
  const [shown, setShown] = useState<string | null>(error || null);
  const [forError, setForError] = useState(error);
  if (forError !== error) {
    // A new answer from the server (another save): its error shows, whatever was there before.
    setForError(error);
    setShown(error || null);
  }
  useEffect(() => {
    const form = ref.current?.closest('form');
    if (!form) return;
    const note = () => {
      if (ref.current) posted.current = snapshot(ref.current);
    };
    form.addEventListener('submit', note, true);
    return () => form.removeEventListener('submit', note, true);
  }, []);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const now = snapshot(el);
    refused.current = posted.current ?? now;
    posted.current = null;
    // Changed while the save was on its way: the answer judged a value the field no longer holds,
    // so the field's own check speaks for what it holds now.
    if (error && now !== refused.current) setShown(check ? check(now) : null);
  }, [error]);
  const update = (el: HTMLElement, leaving: boolean) => {
    if (refused.current === null) return;
    const current = snapshot(el);
    if (leaving) setShown(visibleError({ serverError: error, refused: refused.current, current, check }));
    else setShown(current === refused.current ? error || null : null);
  };
  const watch = {
    ref,
    onInput: (e: FormEvent<HTMLDivElement>) => update(e.currentTarget, false),
    onChange: (e: FormEvent<HTMLDivElement>) => update(e.currentTarget, false),
    onBlur: (e: FocusEvent<HTMLDivElement>) => {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) update(e.currentTarget, true);
    },
  };
  return { shown, watch };
}

function snapshot(el: HTMLElement) {
  return fieldSnapshot(
    el.querySelectorAll<HTMLInputElement>('input:not([type=hidden]):not([type=search]), select, textarea'),
  );
}
