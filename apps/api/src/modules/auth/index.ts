export {
  type AccountChange,
  acceptInvitedAccount,
  changeAccount,
  endSessionsOf,
  type InvitedPerson,
  openOwnerAccount,
  openSession,
} from './accounts';
export { type ActorResolver, createActorResolver } from './actor';
export { authModule } from './auth.module';
export { authPages, sessionUserOf } from './auth.pages';
export { authRoutes } from './auth.routes';
export { type AuthService, createAuthService } from './auth.service';
export { hashToken, LOGIN_LIMITS, SESSION_TTL_MS, type SessionAccount, type SessionUser } from './auth-model';
export { CSRF_FIELD, CSRF_HEADER, type Csrf, csrfBinding, csrfRefused, newCsrfCookie } from './csrf';
export {
  assertSameOrigin,
  clearedSessionCookie,
  cookieValue,
  requestToken,
  SESSION_COOKIE,
  sessionCookie,
} from './session-token';
