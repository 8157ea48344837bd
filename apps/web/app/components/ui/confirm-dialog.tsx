/**
 * A destructive action that asks first. The trigger is the <summary> of a <details>; opening it
 * shows what will happen and the real button (the caller's form). Native HTML, so it works without
 * JavaScript; with it, Escape and Cancel close it and focus returns to the trigger.
 *
 *   <ConfirmDialog trigger="Remove access" title={`Remove ${name}'s access?`}
 *     confirm={<PostForm>…hidden fields…<Button variant="critical" type="submit">Remove {name}</Button></PostForm>}>
 *     They are signed out at once and can no longer open the dashboard.
 *   </ConfirmDialog>
 *
 * Why not a modal <dialog>: opening one needs a script (or invoker commands, not in every browser we
 * serve); a disclosure needs none, keeps the page's place, and reads well with a screen reader.
 */
import './kit.css';
import { type KeyboardEvent, type MouseEvent, type ReactNode, useId, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { buttonClass } from './button';

export function ConfirmDialog({
  trigger,
  triggerLabel,
  title,
  children,
  confirm,
  slim = false,
  defaultOpen = false,
  triggerVariant = 'critical-outline',
  testId,
}: {
  /** The trigger's text ("Remove access"). */
  trigger: ReactNode;
  /** The trigger's accessible name when its text is not enough ("Remove access for Jane"). */
  triggerLabel?: string;
  /** The question, naming the thing ("Remove Jane's access?"). */
  title: ReactNode;
  /** What will happen. */
  children?: ReactNode;
  /** The form whose submit button does it (a critical Button). */
  confirm: ReactNode;
  slim?: boolean;
  /** Drawn open: the confirm was refused (a reason missing), so its message and fields show again. */
  defaultOpen?: boolean;
  /** A consequential but not destructive action that still asks first (resume a store): `secondary`. */
  triggerVariant?: 'critical-outline' | 'secondary';
  testId?: string;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  const titleId = useId();
  const close = () => {
    const d = ref.current;
    if (!d) return;
    d.open = false;
    d.querySelector('summary')?.focus();
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && ref.current?.open) {
      e.preventDefault();
      close();
    }
  };
  const onCancel = (e: MouseEvent) => {
    // With JavaScript the panel closes here; without, the link loads the page again, closed.
    e.preventDefault();
    close();
  };
  return (
    <details
      ref={ref}
      className={triggerVariant === 'secondary' ? 'kit-confirm kit-confirm--neutral' : 'kit-confirm'}
      open={defaultOpen || undefined}
      onKeyDown={onKey}
      data-testid={testId}
    >
      <summary className={buttonClass(triggerVariant, slim)} aria-label={triggerLabel}>
        {trigger}
      </summary>
      <div className="kit-confirm__panel">
        <p id={titleId} className="kit-confirm__title">
          {title}
        </p>
        {children && <div className="kit-confirm__body">{children}</div>}
        <div className="kit-confirm__actions">
          {confirm}
          <Link
            to={{ pathname: location.pathname, search: location.search }}
            onClick={onCancel}
            className={buttonClass('secondary')}
          >
            Cancel
          </Link>
        </div>
      </div>
    </details>
  );
}
