// `npm start`: build the storefront if it is not built yet, then serve every store on one port.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (existsSync('apps/web/package.json') && !existsSync('apps/web/build/server/index.js')) {
  console.log('Building the storefront (first start only)…');
  run('npm', ['run', 'build', '--workspaces', '--if-present']);
}
run(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts']);
