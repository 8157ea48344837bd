import { describe, expect, it } from 'vitest';
import { chatAllowed } from './chat';

describe('chatAllowed', () => {
  it.each([
    '/checkout',
    '/checkout/',
    '/checkout/paypal/return',
    '/CHECKOUT',
    '/%63heckout',
    '//checkout',
    '/account',
    '/account/profile',
    '/order',
    '/order/history',
    '/order.data',
    '/auth/login',
    '/x/auth/y',
    '/manage-store',
    '/manage-store/settings/theme',
    '/%E0%A4%A',
  ])('keeps the chat off %s', (path) => {
    expect(chatAllowed(path)).toBe(false);
  });

  it.each([
    '/',
    '/cart',
    '/faqs',
    '/contact',
    '/categories/lamps',
    '/desk-lamp/1001',
    '/orders-and-more/1',
    '/product/search/order',
  ])('lets it on %s', (path) => {
    expect(chatAllowed(path)).toBe(true);
  });
});
