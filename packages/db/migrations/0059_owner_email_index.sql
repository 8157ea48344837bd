-- Self-serve sign-up asks which stores an email already owns, across every store (a partial index:
-- owners are one account per store).
CREATE INDEX "users_owner_email_idx" ON "users" USING btree ("email") WHERE "users"."role" = 'admin';
