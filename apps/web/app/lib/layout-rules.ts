/** Which parts of the frame a route shows. */
export interface FrameParts {
  header: boolean;
  topStrip: boolean;
  categoryBar: boolean;
  footer: boolean;
  copyright: boolean;
}

const BARE = ['/auth/register', '/auth/login', '/auth/forgot-password', '/manage-store/bonanza-connect'];

const NO_CATEGORY_BAR = [
  '/account/profile',
  '/account/password',
  '/order/history',
  '/account/payment-methods',
  '/manage-store/settings/theme',
  '/manage-store/settings/banners',
  '/manage-store/settings/cms',
  '/manage-store/settings/other',
  '/manage-store/settings/cms/details',
  '/manage-store/settings/access',
];

export function frameParts(pathname: string): FrameParts {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (BARE.includes(path) || path.includes('/auth')) {
    return { header: false, topStrip: false, categoryBar: false, footer: false, copyright: false };
  }
  if (NO_CATEGORY_BAR.includes(path)) {
    return { header: true, topStrip: true, categoryBar: false, footer: true, copyright: true };
  }
  return { header: true, topStrip: true, categoryBar: true, footer: true, copyright: true };
}
