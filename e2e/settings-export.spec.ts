import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, STORES, signIn, snap } from './helpers';

/**
 * Decision 122 as the owner meets it: Settings, Export store starts the export of the whole store,
 * the page follows its progress by itself, and the archive downloads as a .tar.gz whose first entry
 * is its manifest.
 */

const base = STORES.power.url;

test('the owner exports the whole store and downloads the archive', async ({ page }) => {
  await signIn(page, { base, email: 'owner@power.test' }, '/manage-store/settings/export');
  await expect(page.getByRole('heading', { name: 'Export store', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Export store' }).click();
  // The page reads the job again every second until it is done: no reload by the test.
  const download = page.getByRole('link', { name: 'Download archive' });
  await expect(download).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('export-done')).toContainText('records');
  await expectNoSeriousA11yIssue(page);
  await snap(page, 'settings-export-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, 'settings-export-375');
  await page.setViewportSize({ width: 1280, height: 800 });

  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toMatch(/\.tar\.gz$/);
  const path = await file.path();
  expect(gunzipSync(readFileSync(path)).subarray(0, 100).toString('utf8')).toContain('manifest.json');
});
