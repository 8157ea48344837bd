export { healthModule } from './health.module';
export { healthRoutes } from './health.routes';
