/**
 * The save bar of a long form, and the form's default button for Enter.
 *
 *   <PostForm id="product-form">
 *     <SaveBar busy={saving} message={failed ? 'Not saved' : undefined} discard="/manage-store/products" />
 *     …cards…
 *   </PostForm>
 *
 * Put SaveBar FIRST in the form: it sticks to the top of the screen while the form scrolls, its Save
 * is the first stop in the form's tab order (not the last of dozens), and, as the form's first
 * submit button, it is the one Enter in any text box presses. A form whose first submit button is
 * something else (a row's Remove) and that has no SaveBar starts with <DefaultSubmit> instead.
 */
import './kit.css';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link, useActionData } from 'react-router';
import { buttonClass } from './button';

export function SaveBar({
  busy = false,
  message,
  saveLabel = 'Save',
  name = 'intent',
  value = 'save',
  discard,
  disabled = false,
  failure,
  children,
}: {
  busy?: boolean;
  /** Beside the buttons: "Unsaved changes", "Not saved: see the fields marked". */
  message?: ReactNode;
  saveLabel?: string;
  /** The submit button's name and value (the action's intent). */
  name?: string;
  value?: string;
  /** Where Discard goes (the saved page); no Discard when absent. */
  discard?: string;
  disabled?: boolean;
  /**
   * The refused save's answer, when the last save was refused: each new one takes the owner to the
   * first field marked in the form (focused, scrolled to the middle of the screen), however far down
   * the page it is. By default the route's action answer: a form that posts to its page's action
   * needs to pass nothing (a fetcher's form passes its own).
   */
  failure?: object | null;
  /** Controls that belong to the save (a reason for a batch of stock counts), before the buttons. */
  children?: ReactNode;
}) {
  const bar = useRef<HTMLDivElement>(null);
  const routeAnswer = useActionData();
  const answer = failure === undefined ? routeAnswer : failure;
  useEffect(() => {
    // A saved answer leaves no field marked in this form, so only a refusal moves the focus.
    if (!answer) return;
    const first = bar.current?.closest('form')?.querySelector<HTMLElement>('[aria-invalid="true"]');
    first?.focus({ preventScroll: true });
    first?.scrollIntoView({ block: 'center' });
  }, [answer]);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a region, not a <section>: it has no heading of its own.
    <div ref={bar} role="region" aria-label="Save bar" className="kit-save-bar">
      <span aria-live="polite" className="kit-save-bar__message">
        {busy ? 'Saving…' : message}
      </span>
      {children}
      {discard && (
        <Link to={discard} className={buttonClass('secondary')}>
          Discard
        </Link>
      )}
      <button type="submit" name={name} value={value} disabled={busy || disabled} className={buttonClass('primary')}>
        {busy ? 'Saving…' : saveLabel}
      </button>
    </div>
  );
}

/** An unseen first submit button, so Enter in the form does what its main button does. */
export function DefaultSubmit({ name = 'intent', value = 'save' }: { name?: string; value?: string }) {
  return (
    <button type="submit" name={name} value={value} tabIndex={-1} aria-hidden className="kit-default-submit">
      Save
    </button>
  );
}
