import type { PageApi } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { pageApiForLoaders } from './pages';

// Decision 071: the page functions loaders get never throw synchronously (a loader's Promise.all
// over two of them would leave the first one's rejection unwatched), and a database that cannot be
// reached becomes the 503 the error page shows.

describe('page functions as loaders call them', () => {
  it('answer a rejected promise where the function threw before returning one', async () => {
    const refused = Object.assign(new Error('Please log in.'), { statusCode: 401 });
    const api = pageApiForLoaders(
      {
        mediaLibrary() {
          throw refused;
        },
      } as unknown as PageApi,
      () => {},
    );
    let thrown: unknown = null;
    let answer: Promise<unknown> | undefined;
    try {
      answer = api.mediaLibrary();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeNull();
    await expect(answer).rejects.toBe(refused);
  });

  it('turn a database out of reach into a 503 with Retry-After, and say so', async () => {
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const noticed: unknown[] = [];
    const api = pageApiForLoaders(
      {
        async bannersPage() {
          throw new Error('Failed query: select …', { cause: down });
        },
        previewing: () => false,
      } as unknown as PageApi,
      (err) => noticed.push(err),
    );
    const answer = await api.bannersPage().catch((err: unknown) => err);
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(503);
    expect((answer as Response).headers.get('retry-after')).toBe('5');
    expect(noticed).toHaveLength(1);
    // A function that answers at once stays one.
    expect(api.previewing()).toBe(false);
  });
});
