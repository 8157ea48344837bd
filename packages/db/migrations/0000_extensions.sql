-- drizzle-kit does not write CREATE EXTENSION: trigram matching backs typo-tolerant search.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
