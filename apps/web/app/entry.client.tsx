/**
 * The browser build's entry. React's API runs on Preact there (vite.config.ts, decision 062), while
 * the server renders with React 19, so this hydrates React's HTML with Preact. Three things differ
 * from React Router's default entry, each because of that:
 * - Preact renders into an element, and React's document root is `<html>` itself, not a child of
 *   an element. A stand-in parent whose one child is `<html>` lets the Layout's `<html>` take the
 *   real one over (Preact's own recipe for hydrating a part of a parent).
 * - Preact matches server nodes to the tree by tag name, in order, and does not compare
 *   attributes, so the head and body must hold the `<link>`s the components render, where they
 *   render them:
 *   - React's server adds `<link rel="preload" as="image">` hints to the head that no component
 *     renders; left there, the head's own `<link>`s would be matched to them. By the time this
 *     module runs, the images they announced are requested by their `<img>`s already.
 *   - The module preloads that `<Scripts>` renders in the body were put in the head by the
 *     paint-first starter (lib/paint-first.ts). They go back to the body, where the tree has them;
 *     left in the head, Preact would drop them there and make them again in the body.
 * - HydratedRouter suspends while it decodes the server's data. React waits at the root; Preact
 *   needs a Suspense boundary, which keeps the server's HTML on screen meanwhile.
 * A node Preact has to create while hydrating is a mismatch between the server's HTML and the
 * first render here; it is reported as a console error, as React reports one, so the browser tests
 * that require a clean console catch it.
 */
import { options } from 'preact';
import { hydrate } from 'preact/compat';
// (Preact's own Suspense once built: `react` is preact/compat in the browser build.)
import { Suspense } from 'react';
import { HydratedRouter } from 'react-router/dom';

type VNodeLike = { type: unknown };
// `__m` is the hydration-mismatch hook of Preact's production build (`_hydrationMismatch` in its
// sources, which preact/debug uses).
(options as { __m?: (vnode: VNodeLike) => void }).__m = (vnode) => {
  const type = typeof vnode.type === 'string' ? `<${vnode.type}>` : 'text';
  console.error(`Hydration mismatch: a ${type} node was not in the server's HTML and was created.`);
};

for (const hint of document.head.querySelectorAll('link[rel="preload"][as="image"]')) hint.remove();
for (const preload of document.head.querySelectorAll('link[rel="modulepreload"]')) document.body.append(preload);

const html = document.documentElement;
const root = {
  nodeType: 1,
  parentNode: document,
  firstChild: html,
  childNodes: [html],
  namespaceURI: html.namespaceURI,
  ownerDocument: document,
  insertBefore: (node: Node, before: Node | null) => document.insertBefore(node, before),
  appendChild: (node: Node) => document.appendChild(node),
  removeChild: (node: Node) => document.removeChild(node),
};

hydrate(
  <Suspense fallback={null}>
    <HydratedRouter />
  </Suspense>,
  root as unknown as Element,
);
