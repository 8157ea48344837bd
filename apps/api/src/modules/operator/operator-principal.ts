/**
 * Who acts on the platform's API: an operator signed in through the console (cookie), or a script
 * holding one of an operator's tokens. Nothing of a store's (Actor, RequestContext) describes it:
 * the two never mix.
 */
export interface OperatorPrincipal {
  operatorId: string;
  email: string;
  name: string;
  via: 'cookie' | 'token';
  /** For a cookie session: its token's hash (sign-out, CSRF binding). */
  sessionHash: string | null;
  /** For a token: which one. */
  tokenId: string | null;
  tokenName: string | null;
  expiresAt: Date | null;
}

/** What the platform's audit log and the stores' lifecycle history keep of a request. */
export interface OperatorRequest {
  principal: OperatorPrincipal;
  requestId: string;
  ip: string | null;
}

/** The lifecycle history's actor for an operator (a token acts for the operator who made it). */
export const lifecycleActor = (p: OperatorPrincipal) =>
  ({ kind: 'operator', operatorId: p.operatorId, email: p.email }) as const;
