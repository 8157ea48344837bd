/**
 * Buttons and button-looking links of the dashboard.
 *
 *   <Button variant="primary" type="submit">Save</Button>
 *   <ButtonLink to="/manage-store/products/new" variant="primary">Add product</ButtonLink>
 *
 * Variants: primary (one per page: the page's main action), secondary (default), critical (the
 * confirm button of a destructive action), critical-outline (the button that asks for that
 * confirmation), plain (a link-looking button), icon (a square button showing only an icon: give it an
 * aria-label, as for a row's "Move up" arrow).
 */
import './kit.css';
import type { ButtonHTMLAttributes, ComponentProps } from 'react';
import { Link } from 'react-router';

export type ButtonVariant = 'primary' | 'secondary' | 'critical' | 'critical-outline' | 'plain' | 'icon';

export function buttonClass(variant: ButtonVariant = 'secondary', slim = false, extra = '') {
  return `kit-button ${variant === 'secondary' ? '' : `kit-button--${variant}`} ${slim ? 'kit-button--slim' : ''} ${extra}`.trim();
}

export function Button({
  variant = 'secondary',
  slim = false,
  type = 'button',
  className,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; slim?: boolean }) {
  return <button type={type} {...props} className={buttonClass(variant, slim, className)} />;
}

export function ButtonLink({
  variant = 'secondary',
  slim = false,
  className,
  ...props
}: ComponentProps<typeof Link> & { variant?: ButtonVariant; slim?: boolean }) {
  return <Link {...props} className={buttonClass(variant, slim, className)} />;
}
