/**
 * Playwright's `test`, with one check added to every browser test: no page hydrated with a
 * mismatch. The browser runs React's API on Preact over React's server HTML (decision 062), and
 * Preact adopts the server's nodes without comparing them; where the first render in the browser
 * differs from the HTML, it makes a node, and app/entry.client.tsx reports each such node as a
 * console error starting "Hydration mismatch". A test that saw one fails after its own steps,
 * naming the page.
 */
import { test as base, expect, type Page } from '@playwright/test';

export * from '@playwright/test';

export const test = base.extend<{ hydrationWatch: undefined }>({
  hydrationWatch: [
    async ({ context }, use) => {
      const mismatches: string[] = [];
      const watch = (page: Page) =>
        page.on('console', (m) => {
          if (m.type() === 'error' && m.text().startsWith('Hydration mismatch'))
            mismatches.push(`${page.url()}: ${m.text()}`);
        });
      for (const page of context.pages()) watch(page);
      context.on('page', watch);
      await use(undefined);
      expect(mismatches, 'pages whose first render in the browser differed from the server HTML').toEqual([]);
    },
    { auto: true },
  ],
});
