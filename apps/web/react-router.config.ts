import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  buildDirectory: 'build',
  ssr: true,
  // The whole route manifest (2.5 KB gzip, cached under its hash) comes with the page instead of
  // being discovered link by link: each discovery patch re-rendered the whole page right after
  // hydration (React Router's patchRoutes updates the router state), doubling the main-thread work
  // of a first visit, and cost a `/__manifest` request per page.
  routeDiscovery: { mode: 'initial' },
} satisfies Config;
