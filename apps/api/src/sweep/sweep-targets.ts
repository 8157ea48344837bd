import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JsonSchema } from './schema-values';

/**
 * What the sweep requests, read from what the app declares: the operations of its OpenAPI document
 * and the routes of the web build's route manifest. Neither list is written by hand, so a route
 * added tomorrow is swept without editing the sweep.
 */

export type Parameter = {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
};

export interface Operation {
  method: string;
  /** The document's path, e.g. /api/v1/orders/{orderId}. */
  path: string;
  parameters: Parameter[];
  /** Content type to schema, as the document lists the request body. */
  body: Record<string, JsonSchema | undefined> | null;
  /** The statuses the document lists ('200', '4XX', 'default' ...). */
  responses: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

type OpenApiDocument = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
        responses?: Record<string, unknown>;
      }
    >
  >;
};

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const content = op.requestBody?.content;
      out.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: content ? Object.fromEntries(Object.entries(content).map(([type, c]) => [type, c.schema])) : null,
        responses: Object.keys(op.responses ?? {}),
      });
    }
  }
  return out;
}

export function documents(op: Operation, status: number): boolean {
  const s = String(status);
  return op.responses.includes(s) || op.responses.includes(`${s[0]}XX`) || op.responses.includes('default');
}

export interface PageRoute {
  id: string;
  /** The full path with React Router's params, e.g. /manage-store/orders/:orderId. */
  path: string;
  hasAction: boolean;
  /** Draws a page (a default export); a route without one is a resource route and may answer any type. */
  hasComponent: boolean;
  /** Behind a layout whose id ends with /guard (the dashboard's and the account's). */
  guarded: boolean;
}

type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; module: Record<string, unknown> };

/** Every route of the web build that answers a URL (layouts without a path of their own are not pages). */
export async function pageRoutesOf(buildDir: string): Promise<PageRoute[]> {
  const build = (await import(pathToFileURL(join(buildDir, 'server/index.js')).href)) as {
    routes: Record<string, ManifestRoute>;
  };
  const routes = build.routes;
  const hasChildren = new Set(Object.values(routes).map((r) => r.parentId));
  const out: PageRoute[] = [];
  for (const route of Object.values(routes)) {
    // A layout only wraps its children; requesting its path is requesting a child.
    if (hasChildren.has(route.id) && !route.index) continue;
    const parts: string[] = [];
    let guarded = false;
    for (let r: ManifestRoute | undefined = route; r; r = r.parentId ? routes[r.parentId] : undefined) {
      if (r.path) parts.unshift(r.path);
      if (r.id.endsWith('/guard')) guarded = true;
    }
    const path = `/${parts.join('/')}`.replace(/\/+/g, '/');
    out.push({
      id: route.id,
      path,
      hasAction: typeof route.module.action === 'function',
      hasComponent: typeof route.module.default === 'function',
      guarded,
    });
  }
  return out;
}
