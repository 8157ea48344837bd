/** Texts the shopper sees, shared by server and browser (SPEC.md section 8). */
export const GENERIC_ERROR_MESSAGE = 'Something went wrong, please try again.';
export const TENANT_NOT_SETUP_MESSAGE = 'Tenant is not setup.';

/** SPEC.md section 8: the toast after a logout. */
export const LOGOUT_MESSAGE = 'You have been logged out successfully!';
