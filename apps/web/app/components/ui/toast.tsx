import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from 'lucide-react';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';

/** Toast kinds and timings of the product's rules. */
export type ToastKind = 'success' | 'error' | 'warning' | 'standard' | 'customInfo';

const SPEC: Record<ToastKind, { header: string; ms: number }> = {
  success: { header: 'Info', ms: 5000 },
  error: { header: 'Error!!!', ms: 5000 },
  warning: { header: 'Warning', ms: 5000 },
  standard: { header: 'Notice', ms: 5000 },
  customInfo: { header: 'Info', ms: 3000 },
};

interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
}

const ToastContext = createContext<(kind: ToastKind, message: string) => void>(() => {});

/**
 * Messages a page says as it arrives (a saved form's answer, an unknown store), collected while it
 * renders on the server. A toast is a client effect, so without JavaScript the page would say
 * nothing; these are rendered inside <noscript> in the notifications region instead. A shop page
 * that carries one starts its app at once, not at the shopper's first intent (paint-first.ts), so
 * its toast shows as the page does. Null in the browser, where the toast says them.
 */
interface ServerNotice {
  kind: ToastKind;
  message: string;
}
const ServerNotices = createContext<ServerNotice[] | null>(null);

export function useToast() {
  return useContext(ToastContext);
}

/**
 * Says `message` as a toast when the page shows it: a saved form's answer, an unknown store. Once
 * per `answer` (the action's result object, say), so the same message for a second save is said
 * again; the message itself when there is no such object. On the server, where effects do not run,
 * the message joins the page's notices (above) instead. Nothing without a message.
 */
export function useToastOnArrival(kind: ToastKind, message: string | null | undefined, answer: unknown = message) {
  const toast = useToast();
  const notices = useContext(ServerNotices);
  if (notices && message && !notices.some((n) => n.kind === kind && n.message === message)) {
    notices.push({ kind, message });
  }
  useEffect(() => {
    if (answer != null && message) toast(kind, message);
  }, [answer, kind, message, toast]);
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const show = useCallback((kind: ToastKind, message: string) => {
    const id = next.current++;
    // The same message again (Save pressed twice) replaces the one showing rather than stacking a
    // copy: the new id restarts its timer and is announced again.
    setToasts((t) => [...t.filter((x) => x.kind !== kind || x.message !== message).slice(-3), { id, kind, message }]);
  }, []);
  const value = useMemo(() => show, [show]);
  // One list per server render; the page's forms add to it as they render, before the region below.
  const [notices] = useState<ServerNotice[] | null>(() => (typeof document === 'undefined' ? [] : null));
  return (
    <ToastContext.Provider value={value}>
      <ServerNotices.Provider value={notices}>{children}</ServerNotices.Provider>
      <section
        aria-label="Notifications"
        aria-live="polite"
        className="pointer-events-none fixed top-4 right-4 z-[100] flex w-[min(22rem,calc(100vw-2rem))] flex-col gap-3"
      >
        <NoScriptNotices notices={notices} />
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} onDone={dismiss} />
        ))}
      </section>
    </ToastContext.Provider>
  );
}

/**
 * Rendered after the page (React renders the tree in order), so it sees what the page said.
 * The browser never shows <noscript> with JavaScript on, and React does not hydrate its content;
 * the starter of paint-first.ts reads it (`data-notices`) to start the app at once.
 */
function NoScriptNotices({ notices }: { notices: ServerNotice[] | null }) {
  return (
    <noscript data-notices="">
      {notices?.map((n) => (
        <ToastCard key={`${n.kind} ${n.message}`} kind={n.kind} message={n.message} className="animate-notice-out" />
      ))}
    </noscript>
  );
}

const ICON = { success: CircleCheck, error: CircleAlert, warning: TriangleAlert, standard: Info, customInfo: Info };
const TONE: Record<ToastKind, string> = {
  success: 'border-l-emerald-500',
  error: 'border-l-red-500',
  warning: 'border-l-amber-500',
  standard: 'border-l-slate-400',
  customInfo: 'border-l-sky-500',
};

function ToastItem({ toast, onDone }: { toast: Toast; onDone: (id: number) => void }) {
  const { ms } = SPEC[toast.kind];
  useEffect(() => {
    const timer = setTimeout(() => onDone(toast.id), ms);
    return () => clearTimeout(timer);
  }, [toast.id, ms, onDone]);
  const Icon = ICON[toast.kind];
  return (
    <ToastCard
      kind={toast.kind}
      message={toast.message}
      className="pointer-events-auto"
      icon={<Icon aria-hidden className="mt-0.5 size-5 shrink-0 text-slate-500" />}
      action={
        <button
          type="button"
          onClick={() => onDone(toast.id)}
          className="rounded p-0.5 text-slate-400 hover:text-slate-700"
          aria-label="Dismiss notification"
        >
          <X aria-hidden className="size-4" />
        </button>
      }
    />
  );
}

/** One notice's card, shared by the live toasts and the ones shown without JavaScript. */
function ToastCard({
  kind,
  message,
  className,
  icon,
  action,
}: {
  kind: ToastKind;
  message: string;
  className: string;
  icon?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div
      role={kind === 'error' ? 'alert' : 'status'}
      data-kind={kind}
      className={`${className} flex items-start gap-3 rounded-lg border border-l-4 border-slate-200 bg-white p-4 shadow-lg ${TONE[kind]}`}
    >
      {icon}
      <div className="min-w-0 flex-1">
        <p className="text-sm font-semibold text-slate-900">{SPEC[kind].header}</p>
        <p className="mt-0.5 text-sm text-slate-700">{message}</p>
      </div>
      {action}
    </div>
  );
}
