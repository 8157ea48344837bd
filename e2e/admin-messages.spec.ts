import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousA11yIssue, STORES, signIn, snap } from './helpers';

/**
 * The contact inbox: a visitor writes through the contact page with an address
 * of this run; the owner sees it unread (bold, counted), opens it, replies by email (the dev mailbox
 * has the reply, quoting the message) and archives it. Power store; only this spec writes to it.
 */

const power = STORES.power.url;
const owner = { base: power, email: 'owner@power.test' };

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, `admin-messages-${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await snap(page, `admin-messages-${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a visitor writes; the owner sees it unread, opens it, replies by email and archives it', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const run = Date.now();
  const email = `visitor-${run}@example.com`;
  const name = `Vera Visitor ${run}`;
  const message = `Do you sell replacement chucks for the 18V drill? (${run})`;

  // The visitor, in a browser of their own.
  const visitor = await browser.newContext();
  const v = await visitor.newPage();
  await v.goto(`${power}/contact`);
  await v.getByTestId('contact-form').getByLabel('Name').fill(name);
  await v.getByTestId('contact-form').getByLabel('Email').fill(email);
  await v.getByTestId('contact-form').getByLabel('Message').fill(message);
  await v.getByRole('button', { name: 'Send message' }).click();
  await expect(v.getByTestId('contact-sent')).toBeVisible();
  await visitor.close();

  // The inbox, without JavaScript: the message is unread and counted.
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noJs.newPage();
  await signIn(plain, owner, '/manage-store/messages');
  await expect(plain.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  const inbox = plain.getByRole('list', { name: 'Inbox' });
  const item = inbox.getByRole('listitem').filter({ hasText: email });
  await expect(item).toHaveAttribute('data-unread', 'true');
  await expect(item.getByRole('link')).toContainText(`Unread: ${name}`);
  const unreadBefore = Number(
    await plain
      .getByTestId('unread-count')
      .innerText()
      .then((t) => t.match(/\d+/)?.[0]),
  );
  expect(unreadBefore).toBeGreaterThan(0);
  await screenshots(plain, 'inbox-unread');

  // Searching finds it by its address.
  const search = plain.getByRole('search').filter({ has: plain.getByLabel('Search name, email or text') });
  await search.getByLabel('Search name, email or text').fill(email);
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(plain.getByRole('list', { name: 'Inbox' }).getByRole('listitem')).toHaveCount(1);

  // Opening it marks it read; a reply without text is refused next to the box (the server says so).
  await plain.getByRole('link', { name: new RegExp(name) }).click();
  await expect(plain.getByRole('heading', { level: 1, name: `Message from ${name}` })).toBeVisible();
  await expect(plain.getByTestId('message-text')).toHaveText(message);
  await plain.getByLabel(`Your reply to ${name}`).evaluate((el) => el.removeAttribute('required'));
  await plain.getByRole('button', { name: 'Send reply' }).click();
  await expect(plain.getByTestId('error-text')).toHaveText('Write the reply.');
  await noJs.close();

  // With JavaScript: read now, not counted; reply and see it in the thread.
  await signIn(page, owner, '/manage-store/messages');
  const row = page.getByRole('list', { name: 'Inbox' }).getByRole('listitem').filter({ hasText: email });
  await expect(row).not.toHaveAttribute('data-unread', 'true');
  if (unreadBefore > 1) await expect(page.getByTestId('unread-count')).toContainText(String(unreadBefore - 1));
  else await expect(page.getByTestId('unread-count')).toHaveCount(0);
  await expectNoSeriousA11yIssue(page);
  await screenshots(page, 'inbox');

  await row.getByRole('link').click();
  const reply = `Yes: the 13 mm keyless chuck fits. Reply ${run}.`;
  await page.getByLabel(`Your reply to ${name}`).fill(reply);
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Reply sent to ${email}` })).toBeVisible();
  await expect(page.getByTestId('message-reply')).toContainText(reply);
  await expect(page.getByLabel(`Your reply to ${name}`)).toHaveValue('');
  await expectNoSeriousA11yIssue(page);
  await screenshots(page, 'thread');

  // The reply reached the visitor's mailbox, quoting the message.
  const mail = browser.newContext().then((c) => c.newPage());
  const box = await mail;
  const link = box.getByRole('row', { name: email }).getByRole('link', { name: 'Re: your message to Voltline Tools' });
  await expect(async () => {
    await box.goto(`${power}/dev/mailbox`);
    await expect(link).toBeVisible({ timeout: 500 });
  }).toPass();
  await link.click();
  await expect(box.getByText(reply)).toBeVisible();
  await expect(box.locator('pre')).toContainText(`> ${message}`);
  await box.context().close();

  // Archive: it leaves the inbox for the Archived tab.
  await page.getByRole('button', { name: 'Archive' }).click();
  await expect(page).toHaveURL(/\/manage-store\/messages\?done=archived$/);
  await expect(page.getByRole('status').filter({ hasText: 'Message archived.' })).toBeVisible();
  await expect(page.getByText(email)).toHaveCount(0);
  await page.getByRole('link', { name: 'Archived' }).click();
  await expect(
    page.getByRole('list', { name: 'Archived messages' }).getByRole('listitem').filter({ hasText: email }),
  ).toHaveCount(1);
  await screenshots(page, 'archived');
});
