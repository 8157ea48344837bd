import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { PORT } from './playwright.config';

export const STORES = {
  lighting: { url: `http://lighting.localhost:${PORT}`, storeId: '9000', template: 'DEFAULT' },
  garden: { url: `http://garden.localhost:${PORT}`, storeId: '9001', template: 'ONE' },
  power: { url: `http://power.localhost:${PORT}`, storeId: '9002', template: 'DEFAULT' },
} as const;
export type StoreName = keyof typeof STORES;
export const STORE_NAMES = Object.keys(STORES) as StoreName[];

/** Screenshots kept for people to look at (test-results/screenshots). */
export async function snap(page: Page, name: string) {
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}

export async function apiJson<T>(page: Page, store: StoreName, path: string): Promise<T> {
  const res = await page.request.get(`${STORES[store].url}${path}`);
  return (await res.json()) as T;
}
