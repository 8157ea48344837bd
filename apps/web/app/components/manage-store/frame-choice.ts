import { useMatches } from 'react-router';

/** Who works in the dashboard, and so gets its frame: the owner and their staff (decision 016). */
export function isStaff(user: { partyId: string } | null | undefined): boolean {
  return user?.partyId === 'admin' || user?.partyId === 'staff';
}

/** What the dashboard's layout route says in its `handle`: it draws the frame of its pages. */
export interface DashboardLayoutHandle {
  dashboard: true;
}

/**
 * Whether the dashboard draws this page's frame (decision 085): a page under the dashboard's
 * layout, seen by the store's staff. The root then draws none of the shop's frame. A shopper who
 * opens a dashboard address gets its refusal in the shop's frame, as any other shop page; an
 * unknown /manage-store address is the shop's not-found page. Small and free of the frame itself,
 * so the root's chunk, which every shopper loads, does not grow with the dashboard.
 */
export function useDashboardFrame(user: { partyId: string } | null | undefined): boolean {
  const matches = useMatches();
  return isStaff(user) && matches.some((m) => (m.handle as Partial<DashboardLayoutHandle> | undefined)?.dashboard);
}
