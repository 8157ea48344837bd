import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The crash, as a lint rule. `Promise.all([a(), b()])` leaves a()'s rejection unwatched when
// b() throws before returning its promise: Promise.all never runs, and a rejection nobody handles
// ended the process. So: no function that can throw synchronously (not `async`, with a call or a
// `throw` before its `return`) may be called in such a list after its first element. Page
// functions as loaders call them (`context.api.x()`) are exempt because the page server makes each
// answer a rejected promise instead (pageApiForLoaders, decision 071; modules/storefront/page-api.test.ts).

const ROOTS = ['apps/api/src', 'apps/web/app'];
const COMBINATORS = new Set(['all', 'allSettled', 'race', 'any']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'test' ? [] : sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$|\.d\.ts$/.test(e.name) ? [path] : [];
  });
}

interface Source {
  file: string;
  sf: ts.SourceFile;
}
const parse = (file: string, text: string): Source => ({
  file,
  sf: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true),
});

/** Whether a statement may throw on its own before the function returns (a call or a throw). */
const mayThrow = (s: ts.Statement) =>
  ts.isThrowStatement(s) ||
  (ts.isExpressionStatement(s) && ts.isCallExpression(s.expression)) ||
  (ts.isIfStatement(s) && ts.isThrowStatement(s.thenStatement));

function nameOf(node: ts.FunctionLikeDeclaration): string | undefined {
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) return node.name?.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return undefined;
}

/** Names of functions that are not async and may throw before they return a call's result. */
function syncThrowers(sources: Source[]): Set<string> {
  const names = new Set<string>();
  for (const { sf } of sources) {
    const visit = (node: ts.Node) => {
      if (
        (ts.isFunctionDeclaration(node) ||
          ts.isMethodDeclaration(node) ||
          ts.isArrowFunction(node) ||
          ts.isFunctionExpression(node)) &&
        node.body &&
        ts.isBlock(node.body)
      ) {
        const isAsync = ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
        const statements = node.body.statements;
        const returnsCall = statements.some(
          (s) => ts.isReturnStatement(s) && s.expression && ts.isCallExpression(s.expression),
        );
        const name = nameOf(node);
        if (!isAsync && name && returnsCall && statements.some(mayThrow)) names.add(name);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return names;
}

/** Calls evaluated at once in an expression (not those inside a function written there). */
function eagerCalls(node: ts.Node, out: ts.CallExpression[] = []): ts.CallExpression[] {
  if (ts.isFunctionLike(node)) return out;
  if (ts.isCallExpression(node)) out.push(node);
  ts.forEachChild(node, (c) => {
    eagerCalls(c, out);
  });
  return out;
}

function offences(sources: Source[]): string[] {
  const throwers = syncThrowers(sources);
  const found: string[] = [];
  for (const { file, sf } of sources) {
    const visit = (node: ts.Node) => {
      const list = ts.isCallExpression(node) ? node.arguments[0] : undefined;
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.expression.getText() === 'Promise' &&
        COMBINATORS.has(node.expression.name.text) &&
        list &&
        ts.isArrayLiteralExpression(list)
      ) {
        for (const element of list.elements.slice(1)) {
          for (const call of eagerCalls(element)) {
            const callee = call.expression;
            const name = ts.isPropertyAccessExpression(callee)
              ? callee.name.text
              : ts.isIdentifier(callee)
                ? callee.text
                : undefined;
            if (!name || !throwers.has(name)) continue;
            if (ts.isPropertyAccessExpression(callee) && /(^|\.)api$/.test(callee.expression.getText())) continue;
            const { line } = sf.getLineAndCharacterOfPosition(call.getStart());
            found.push(`${file}:${line + 1} ${call.getText().slice(0, 80)}`);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

describe('Promise.all and its kin', () => {
  it('never list, after the first, a call that can throw before it returns its promise', () => {
    const all = ROOTS.flatMap(sources).map((file) => parse(file, readFileSync(file, 'utf8')));
    // The rule knows the function of the crash: it is not async and checks access first.
    expect(syncThrowers(all)).toContain('mediaLibrary');
    expect(offences(all)).toEqual([]);
  }, 120_000); // parses every source file: seconds, more on a busy machine

  it('the rule finds the shape of the crash', () => {
    const example = parse(
      'example.ts',
      `const media = {
        list(ctx) {
          requireAccess(ctx, 'settings');
          return db.select().from(t);
        },
      };
      async function banners(ctx) { return []; }
      export async function loader(ctx) {
        return Promise.all([banners(ctx), media.list(ctx)]);
      }`,
    );
    expect(offences([example])).toEqual(['example.ts:9 media.list(ctx)']);
  });
});
