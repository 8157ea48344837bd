import '../ui/kit.css';
import { ChartColumn, KeyRound, LogOut, ScrollText, ShieldCheck, Store } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { PostForm } from '../ui/post-form';

/** The console's areas, in the order an operator uses them: the stores first. */
export const CONSOLE_NAV = [
  { to: '/operator', label: 'Stores', icon: Store },
  { to: '/operator/figures', label: 'Figures', icon: ChartColumn },
  { to: '/operator/audit', label: 'Audit log', icon: ScrollText },
  { to: '/operator/tokens', label: 'API tokens', icon: KeyRound },
] as const;

/** The entry a path belongs to: the longest one that is the path or a parent of it. */
export function currentConsoleItem(pathname: string) {
  const path = pathname.replace(/\/+$/, '') || '/';
  return [...CONSOLE_NAV]
    .filter((i) => path === i.to || path.startsWith(`${i.to}/`))
    .sort((a, b) => b.to.length - a.to.length)[0];
}

/**
 * The operator console's frame, the whole page once signed in (the platform's public header and
 * footer are left out, routes/platform/frame.tsx): a bar naming the signed-in operator with Sign out,
 * the console's menu, the page, all in the page's main landmark.
 * Neutral greys of the dashboard (decision 085). The menu has four entries, so on a phone it is a
 * row of links rather than a disclosure: nothing to open, and it works before the app has started.
 */
export function ConsoleFrame({ email, children }: { email: string; children: ReactNode }) {
  const { pathname } = useLocation();
  const current = currentConsoleItem(pathname);
  return (
    <div className="flex min-h-screen flex-col bg-[#f1f1f1] text-[#171717]">
      <div className="flex flex-wrap items-center gap-3 bg-[#1a1a1a] px-3 py-2 text-white md:px-4">
        <p className="flex min-w-0 flex-1 items-center gap-2 text-sm font-semibold">
          <span aria-hidden className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-[#303030]">
            <ShieldCheck className="size-4" />
          </span>
          Operator console
        </p>
        <p
          className="order-last w-full min-w-0 truncate text-xs text-[#e3e3e3] sm:order-none sm:w-auto sm:text-sm"
          data-testid="operator-email"
        >
          {email}
        </p>
        <PostForm action="/operator/sign-out">
          <button
            type="submit"
            className="inline-flex h-9 items-center justify-center gap-1.5 rounded-lg px-2 text-sm font-medium text-white hover:bg-[#303030] focus-visible:outline-2 focus-visible:outline-white sm:px-3"
          >
            <LogOut aria-hidden className="size-4" />
            Sign out
          </button>
        </PostForm>
      </div>
      <div className="md:flex md:flex-1">
        <nav
          aria-label="Console"
          className="border-b border-[#e3e3e3] bg-[#ebebeb] px-3 py-2 md:w-56 md:shrink-0 md:border-b-0 md:py-4"
        >
          <ul className="flex flex-wrap gap-1 md:block md:space-y-0.5">
            {CONSOLE_NAV.map((item) => {
              const Icon = item.icon;
              const active = current?.to === item.to;
              return (
                <li key={item.to}>
                  <Link
                    to={item.to}
                    aria-current={active ? 'page' : undefined}
                    className={`flex h-9 items-center gap-2 rounded-lg px-2 text-sm md:h-8 ${
                      active
                        ? 'bg-white font-semibold shadow-[0_1px_0_rgba(0,0,0,0.06)]'
                        : 'font-medium hover:bg-[#f6f6f6]'
                    }`}
                  >
                    <Icon aria-hidden className="size-4 shrink-0 text-[#4a4a4a]" />
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="min-w-0 flex-1 px-4 py-4 md:px-8 md:py-6">{children}</div>
      </div>
    </div>
  );
}
