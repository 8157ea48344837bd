import type { Database } from '@app/db';
import { sql } from 'drizzle-orm';
import type { Permission } from '../lib/context';

/**
 * Adds a staff member to a seeded store, with the owner's demo password (owner-demo-1) so a test
 * can sign in as them. The invitation flow of the access settings is not needed for that.
 */
export async function createStaff(
  database: Database,
  tenantId: string,
  email: string,
  permissions: Permission[],
): Promise<string> {
  const userId = `staff-${email.split('@')[0]}`;
  await database.db.execute(sql`
    INSERT INTO users (tenant_id, user_id, email, password_hash, first_name, last_name, role, permissions)
    SELECT tenant_id, ${userId}, ${email}, password_hash, 'Staff', 'Member', 'staff', ${`{${permissions.join(',')}}`}::text[]
    FROM users WHERE tenant_id = ${tenantId} AND role = 'admin' LIMIT 1`);
  return userId;
}
