import type { FastifyRequest } from 'fastify';
import { normaliseHost } from '../modules/tenant/index';
import { AppError } from './errors';
import type { BuildOptions } from './module';

/** The platform's own host when the configuration names none (development and tests). */
export const DEFAULT_PLATFORM_HOST = 'platform.localhost';
/** The domain a new store's subdomain is put under when the configuration names none. */
export const DEFAULT_PLATFORM_DOMAIN = 'localhost';

export function platformHostOf(config: BuildOptions['config']): string {
  return normaliseHost(config.PLATFORM_HOST ?? DEFAULT_PLATFORM_HOST);
}

export function platformDomainOf(config: BuildOptions['config']): string {
  return normaliseHost(config.PLATFORM_DOMAIN ?? DEFAULT_PLATFORM_DOMAIN);
}

/** Whether the request came to the platform's own host (the port does not count). */
export function isPlatformRequest(req: FastifyRequest, config: BuildOptions['config']): boolean {
  return normaliseHost(req.host ?? '') === platformHostOf(config);
}

/**
 * Platform routes (operator API, sign-up) are mounted with `config: { tenant: false }` and exist
 * only on the platform host: anywhere else they answer 404, as if there were no such route.
 */
export function requirePlatformHost(req: FastifyRequest, config: BuildOptions['config']): void {
  if (!isPlatformRequest(req, config)) {
    throw new AppError(404, 'NOT_FOUND', `No endpoint ${req.method} ${req.url.split('?')[0]}.`);
  }
}
