// The compiled server's entry (`apps/api/dist/server.mjs`, build.mjs): it loads React's production
// build, then starts the server bundled beside it (`server-main.mjs`, from server.ts).
//
// Why here and not in server.ts: React picks its development or production build from NODE_ENV when
// it is first loaded, and the app reads NODE_ENV too, for what this deployment is (a development
// deployment keeps its mail in a local outbox, seeds the demo operator, asks no TOTP). Those two
// are not the same question: the pages are always served from the storefront's production build
// (the browser runs React's production build), and React's development build on the server only adds
// warnings, which the unit tests (NODE_ENV=test, run from source) still see, at about 1.4 times the
// CPU per page render (decision 113). A bundle's external imports are evaluated before any of its own
// code, so the choice has to be made in a file of its own, before the bundle is imported.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const mode = process.env.NODE_ENV;
process.env.NODE_ENV = 'production';
try {
  // Node keeps one instance of a CommonJS module: the storefront build's `import 'react-dom/server'`
  // and the router's `import 'react'` receive these.
  for (const name of ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/server']) require(name);
} finally {
  if (mode === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = mode;
}

// The server compiled beside this file (build.mjs leaves this import to Node).
const serverMain = './server-main.mjs';
const { start } = (await import(serverMain)) as typeof import('./server');
start().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
