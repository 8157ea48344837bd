import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { everyVariantAddsUp } from './stock-everywhere-test-setup';

// The PGlite twin of the variants' concurrency proof in stock-everywhere.postgres.test.ts: one
// connection, so the statements of the orders and adjustments interleave rather than run at once.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('stock of the variants of one product, under concurrent orders and adjustments', () => {
  it("leaves every variant's books adding up and the product's totals the sums", () => everyVariantAddsUp(t), 60_000);
});
