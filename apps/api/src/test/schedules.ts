import { schema } from '@app/db';
import { eq } from 'drizzle-orm';
import type { TestApp } from './harness';

/**
 * Brings a daily schedule's next run to a second ago, as if its time of day had come: the runner's
 * next `runSchedules()` enqueues its job for every store (the nightly sitemaps, the stuck-order sweep,
 * the domains' re-check).
 */
export async function makeScheduleDue(t: TestApp, name: string): Promise<void> {
  await t.database.db
    .update(schema.jobSchedules)
    .set({ nextRunAt: new Date(Date.now() - 1000) })
    .where(eq(schema.jobSchedules.name, name));
}
