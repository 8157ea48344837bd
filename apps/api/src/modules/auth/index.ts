export { authRoutes, optionalUser, requireUser } from './auth.routes';
export { type AuthService, createAuthService, LOGIN_LIMITS, SESSION_TTL_MS, type SessionUser } from './auth.service';
export { clearedSessionCookie, requestToken, SESSION_COOKIE, sessionCookie } from './session-token';
