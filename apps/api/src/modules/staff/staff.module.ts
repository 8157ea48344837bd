import { defineModule } from '../../lib/module';
import { staffPages } from './staff.pages';
import { staffRoutes } from './staff.routes';
import { createStaffService, type StaffService } from './staff.service';

declare module '../../lib/module' {
  interface ModuleServices {
    staff: { staff: StaffService };
  }
}

export const staffModule = defineModule({
  name: 'staff',
  needs: ['tenant', 'mail', 'audit'],
  create: ({ db, events, linkOrigin }, { audit, mailer, visibility }) => ({
    staff: createStaffService(db, { events, audit, mailer, visibility, linkOrigin }),
  }),
  routes: (app, { staff }) => app.register(staffRoutes, { staff }),
  pages: ({ staff, visibility }) => [staffPages({ staff, visibility })],
});
