import type { SessionUser } from '@app/contracts';
import { ChevronDown, CircleUser } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { markLogout } from '../../lib/stored-values';
import { PostForm } from '../ui/post-form';

/** Logged in: the first name with My Profile, Manage Store (admins only) and Logout. */
export function UserMenu({ user, template }: { user: SessionUser | null; template: string }) {
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (!user) {
    return (
      <Link
        to="/auth/login"
        className="flex items-center gap-2 rounded-md px-2 py-2 text-sm font-medium text-slate-800 hover:text-brand"
        data-testid="login-link"
      >
        <CircleUser aria-hidden className="size-6" />
        <span className={template === 'ONE' ? 'hidden lg:inline' : 'hidden sm:inline'}>
          {template === 'ONE' ? 'Sign in or Create Account' : 'Log in'}
        </span>
        <span className="sr-only sm:hidden">{template === 'ONE' ? 'Sign in or Create Account' : 'Log in'}</span>
      </Link>
    );
  }

  const item = 'block w-full px-4 py-2.5 text-left text-sm text-slate-700 hover:bg-brand-xlight hover:text-slate-900';
  return (
    <div ref={ref} className="relative">
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
        className="flex items-center gap-1.5 rounded-md px-2 py-2 text-sm font-medium text-slate-800 hover:text-brand"
        data-testid="user-menu-button"
      >
        <CircleUser aria-hidden className="size-6" />
        <span className="max-w-[5rem] truncate sm:max-w-[8rem]">{user.firstName}</span>
        <ChevronDown aria-hidden className="size-4" />
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          className="absolute right-0 z-50 mt-2 w-48 overflow-hidden rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          <Link role="menuitem" to="/account/profile/settings" className={item}>
            My Profile
          </Link>
          {(user.partyId === 'admin' || user.partyId === 'staff') && (
            <Link role="menuitem" to="/manage-store" className={item}>
              Manage Store
            </Link>
          )}
          <PostForm action="/auth/logout" onSubmit={markLogout}>
            <button role="menuitem" type="submit" className={item} data-testid="logout-button">
              Logout
            </button>
          </PostForm>
        </div>
      )}
    </div>
  );
}
