import type { StaffPermission } from '@app/contracts/client';
import {
  Archive,
  BadgePercent,
  ChevronDown,
  FileText,
  FolderTree,
  Globe,
  House,
  Image,
  Inbox,
  Lock,
  type LucideIcon,
  MessageSquareQuote,
  MessagesSquare,
  PackageOpen,
  PackageSearch,
  Palette,
  Percent,
  Plug,
  Search,
  Store,
  Tag,
  Truck,
  Users,
  Wallet,
  Warehouse,
} from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';

interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Who sees the entry: staff holding this permission (the owner holds all); none: every staff member. */
  permission?: StaffPermission;
}

/**
 * Icons: none that a single storefront page uses alone (CreditCard is the payment methods page's),
 * or the bundler splits it out of that page's chunk into a shared one, a request more for shoppers.
 *
 * Every area of the dashboard, grouped as Shopify's admin groups them: the day's work first, then
 * how the store looks and behaves, then money and channels. Routes come from the folder; which of
 * them the owner should find in the menu, and in what order, is a design choice made here.
 */
export const DASHBOARD_NAV: { label?: string; items: NavItem[] }[] = [
  {
    items: [
      { to: '/manage-store', label: 'Home', icon: House },
      { to: '/manage-store/orders', label: 'Orders', icon: Inbox, permission: 'orders' },
      { to: '/manage-store/returns', label: 'Returns', icon: PackageOpen, permission: 'orders' },
      { to: '/manage-store/products', label: 'Products', icon: Tag, permission: 'catalog' },
      { to: '/manage-store/categories', label: 'Categories', icon: FolderTree, permission: 'catalog' },
      { to: '/manage-store/inventory', label: 'Inventory', icon: Warehouse, permission: 'catalog' },
      { to: '/manage-store/reviews', label: 'Reviews', icon: MessageSquareQuote, permission: 'catalog' },
      { to: '/manage-store/customers', label: 'Customers', icon: Users, permission: 'customers' },
      { to: '/manage-store/messages', label: 'Messages', icon: MessagesSquare, permission: 'customers' },
      { to: '/manage-store/promo-codes', label: 'Promo codes', icon: BadgePercent, permission: 'orders' },
    ],
  },
  {
    label: 'Content & settings',
    items: [
      { to: '/manage-store/settings/theme', label: 'Theme', icon: Palette, permission: 'settings' },
      { to: '/manage-store/settings/banners', label: 'Banners', icon: Image, permission: 'settings' },
      { to: '/manage-store/settings/cms', label: 'Pages', icon: FileText, permission: 'settings' },
      { to: '/manage-store/settings/other', label: 'Store details', icon: Store, permission: 'settings' },
      { to: '/manage-store/settings/access', label: 'Access', icon: Lock, permission: 'settings' },
      { to: '/manage-store/settings/domains', label: 'Domains', icon: Globe, permission: 'settings' },
      { to: '/manage-store/settings/sitemap', label: 'Search engines', icon: Search, permission: 'settings' },
      { to: '/manage-store/settings/shipping', label: 'Shipping', icon: Truck, permission: 'settings' },
      { to: '/manage-store/settings/carriers', label: 'Carriers', icon: PackageSearch, permission: 'settings' },
      // The owner's alone (the page answers a staff member with the 403 page): the menu knows permissions, not roles.
      { to: '/manage-store/settings/export', label: 'Export store', icon: Archive, permission: 'settings' },
    ],
  },
  {
    label: 'Money & channels',
    items: [
      { to: '/manage-store/payments', label: 'Payments', icon: Wallet, permission: 'payments' },
      { to: '/manage-store/settings/tax', label: 'Taxes', icon: Percent, permission: 'settings' },
      { to: '/manage-store/bonanza-connect', label: 'Marketplace connect', icon: Plug, permission: 'catalog' },
    ],
  },
];

const ITEMS = DASHBOARD_NAV.flatMap((g) => g.items);

/** The menu entry a path belongs to: the longest one that is the path or a parent of it. */
export function currentNavItem(pathname: string): NavItem | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  return ITEMS.filter((i) => path === i.to || path.startsWith(`${i.to}/`)).sort((a, b) => b.to.length - a.to.length)[0];
}

/**
 * The menu a staff member gets: the entries their permissions open, groups left empty dropped.
 * A page they lack still answers with the 403 page (the server checks); the menu just does not
 * offer it.
 */
export function navFor(permissions: readonly string[]) {
  return DASHBOARD_NAV.map((group) => ({
    ...group,
    items: group.items.filter((i) => !i.permission || permissions.includes(i.permission)),
  })).filter((group) => group.items.length > 0);
}

/** The grouped links, the current one marked with aria-current="page". */
function NavList({ permissions }: { permissions: readonly string[] }) {
  const { pathname } = useLocation();
  const current = currentNavItem(pathname);
  return (
    <div className="space-y-4">
      {navFor(permissions).map((group, gi) => (
        <div key={group.label ?? gi}>
          {group.label && (
            // #525252 on the sidebar's #ebebeb: 6.5:1, readable as small text (axe's 4.5:1).
            <p className="px-2 pb-1 text-xs font-semibold text-[#525252]" id={`dashboard-nav-${gi}`}>
              {group.label}
            </p>
          )}
          <ul className="space-y-0.5" aria-labelledby={group.label ? `dashboard-nav-${gi}` : undefined}>
            {group.items.map((item) => {
              const Icon = item.icon;
              const active = current?.to === item.to;
              return (
                <li key={item.to}>
                  {/* Link, not NavLink: the menu's own rule (the longest matching entry) marks the
                      current page, so Home is not marked on every page below it. */}
                  <Link
                    to={item.to}
                    aria-current={active ? 'page' : undefined}
                    className={`flex h-9 items-center gap-2.5 rounded-lg px-2 text-sm md:h-8 ${
                      active
                        ? 'bg-white font-semibold text-[#171717] shadow-[0_1px_0_rgba(0,0,0,0.06)]'
                        : 'font-medium text-[#171717] hover:bg-[#f6f6f6]'
                    }`}
                  >
                    <Icon aria-hidden className={`size-4 shrink-0 ${active ? 'text-[#171717]' : 'text-[#4a4a4a]'}`} />
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </div>
  );
}

/**
 * The dashboard's menu, one landmark at every width: from md up a sidebar, always open; on a phone
 * a disclosure button naming the current page, the menu opening below it and closing on Escape
 * (focus back on the button) or once a page is chosen. The button sits inside the landmark (the
 * disclosure-navigation pattern), so nothing of the frame is outside one. A tap before the app has
 * loaded is held and replayed (held-click.ts), as for every `type="button"` button.
 */
export function DashboardNav({ permissions }: { permissions: readonly string[] }) {
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const current = currentNavItem(pathname);
  // A page was chosen (or the back button used): the menu has done its job.
  useEffect(() => setOpen(false), [pathname]);
  return (
    <nav aria-label="Dashboard" className="border-b border-[#e3e3e3] px-3 py-2 md:border-b-0 md:px-3 md:py-4">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((o) => !o)}
        className="flex h-11 w-full items-center justify-between rounded-lg border border-[#d4d4d4] bg-white px-3 text-sm font-semibold text-[#171717] shadow-sm md:hidden"
      >
        <span className="flex items-center gap-2">
          <span className="text-[#525252]">Menu</span>
          <span aria-hidden className="text-[#8a8a8a]">
            /
          </span>
          {current?.label ?? 'Dashboard'}
        </span>
        <ChevronDown aria-hidden className={`size-4 text-[#525252] transition-transform ${open ? 'rotate-180' : ''}`} />
      </button>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere in the open menu closes it */}
      <div
        id={menuId}
        data-testid="dashboard-menu"
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open) {
            setOpen(false);
            button.current?.focus();
          }
        }}
        className={`${open ? 'block' : 'hidden'} pt-2 pb-1 md:block md:p-0`}
      >
        <NavList permissions={permissions} />
      </div>
    </nav>
  );
}
