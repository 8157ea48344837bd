export { staffModule } from './staff.module';
export { staffPages } from './staff.pages';
export { staffRoutes } from './staff.routes';
export { createStaffService, INVITATION_TTL_MS, type StaffService } from './staff.service';
