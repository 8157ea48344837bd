import { z } from 'zod';

/**
 * Moving a store to another of the deployment's databases (decision 123): the operator names the
 * target, a job copies the store, catches up, holds its writes for a moment and switches it.
 */

/** Why the operator moves the store: kept in the platform's audit log, as for every action on a store. */
export const STORE_MOVE_REASON_MAX = 500;
export const storeMoveReasonSchema = z
  .string({ error: 'Please give a reason.' })
  .trim()
  .min(1, 'Please give a reason.')
  .max(STORE_MOVE_REASON_MAX, `Please keep the reason under ${STORE_MOVE_REASON_MAX} characters.`);

export const storeMoveRequestSchema = z
  .object({
    /** A name of `STORE_DATABASES`, or `main` for the home database. */
    database: z.string({ error: 'Please choose a database.' }).trim().min(1, 'Please choose a database.').max(31),
    reason: storeMoveReasonSchema,
  })
  .strict();
export type StoreMoveRequest = z.infer<typeof storeMoveRequestSchema>;

/** The move's job as the operator's API shows it. */
export const storeMoveSchema = z.object({
  jobId: z.string(),
  status: z.enum(['pending', 'running', 'succeeded', 'failed']),
  /** Steps done of `total`: one per table copied, the catch-up, then the switch and the source cleared. */
  done: z.number().int(),
  total: z.number().int(),
  /** The database the store is moving (or moved) to. */
  database: z.string().nullable(),
  /** Once it succeeded: how long the store's writes were held at the switch, in milliseconds. */
  writeHoldMs: z.number().int().nullable(),
  /**
   * Once it succeeded: whether the database it left no longer holds the store's rows; false names why
   * in `error` (the store runs on its new database all the same; the old rows are cleared by hand).
   */
  sourceCleared: z.boolean().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
});
export type StoreMove = z.infer<typeof storeMoveSchema>;

/** Where a store is and where it could go, with its latest move. */
export const storePlacementSchema = z.object({
  database: z.string(),
  databases: z.array(z.string()),
  latestMove: storeMoveSchema.nullable(),
});
export type StorePlacement = z.infer<typeof storePlacementSchema>;

/** One of the deployment's databases as the operator sees it, with the stores it holds now. */
export const platformDatabaseSchema = z.object({
  /** `main` for the home database (`DATABASE_URL`), else its name in `STORE_DATABASES`. */
  name: z.string(),
  /** The home database: the platform's own tables, and every store not placed elsewhere. */
  home: z.boolean(),
  /**
   * Whether this process has the database. False only for a name stores are still placed on that
   * `STORE_DATABASES` no longer lists: those stores cannot be served until it is listed again.
   */
  configured: z.boolean(),
  /** Stores placed there, purged stores left out. */
  stores: z.number().int(),
});
export type PlatformDatabase = z.infer<typeof platformDatabaseSchema>;

/** GET /platform-api/databases: the home database first, then the others as configured. */
export const platformDatabasesSchema = z.object({ databases: z.array(platformDatabaseSchema) });
export type PlatformDatabases = z.infer<typeof platformDatabasesSchema>;

/** Where a store is, the databases it could go to, and its latest move: the console's store page. */
export interface StoreWhereabouts {
  database: string;
  databases: PlatformDatabase[];
  latestMove: StoreMove | null;
}
export type StoreMoveField = keyof StoreMoveRequest;
