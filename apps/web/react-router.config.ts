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
  // Each flag set to the behaviour the code is written for (v7's), which also silences the build's
  // warnings: loaders read `context.api` from the server's load context (no middleware context),
  // route modules are not split, data requests keep v7's URLs and request handling.
  future: {
    v8_middleware: false,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
