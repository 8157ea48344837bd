/** Texts the shopper sees, shared by server and browser. */
export const GENERIC_ERROR_MESSAGE = 'Something went wrong, please try again.';
export const TENANT_NOT_SETUP_MESSAGE = 'Tenant is not setup.';

/** The toast after a logout. */
export const LOGOUT_MESSAGE = 'You have been logged out successfully!';
