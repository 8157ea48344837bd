import type { CategoriesActionResult, CategoryLookup, CategoryNode } from '@app/contracts';
import { CSRF_FIELD } from '@app/contracts/client';
import { ArrowDown, ArrowUp, ChevronRight, GripVertical } from 'lucide-react';
import { createContext, type DragEvent, useContext, useEffect, useRef, useState } from 'react';
import { Link, useFetcher, useNavigation, useRouteLoaderData } from 'react-router';
import { useActionToast } from '../../lib/use-action-toast';
import type { loader as rootLoader } from '../../root';
import { Banner } from '../ui/banner';
import { Button } from '../ui/button';
import { PostForm } from '../ui/post-form';
import { SelectField } from '../ui/select-field';

/** Where a row sits, as the forms post it: "catalog:<id>" or "parent:<id>". */
export type PlaceKey = string;

interface Target {
  /** A catalog's top: "catalog:<id>"; a category: its id. */
  key: string;
  label: string;
}

interface TreeCtx {
  /** Every place a category can be moved to (catalog tops first, then categories). */
  targets: Target[];
  drag: { current: { id: string; from: PlaceKey; index: number } | null };
  drop(to: PlaceKey, position: number | undefined): void;
  /** One step up or down (the drag handle's arrow keys). */
  step(id: string, from: PlaceKey, intent: 'move-up' | 'move-down'): void;
  busy: boolean;
}

const Ctx = createContext<TreeCtx | null>(null);

/**
 * The tree of one catalog, or of the categories nothing holds. Rows are dragged by their handle:
 * onto a row's middle puts the category inside it, onto its upper or lower edge before or after
 * it. Every row also has Move up / Move down and a "Move to" menu: plain forms, so the keyboard and
 * a browser without JavaScript can do all of it (decision 035).
 */
export function CategoryTreeProvider({
  catalogs,
  all,
  children,
}: {
  catalogs: { prodCatalogId: string; catalogName: string }[];
  all: CategoryLookup;
  children: React.ReactNode;
}) {
  const fetcher = useFetcher<CategoriesActionResult>();
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const drag = useRef<TreeCtx['drag']['current']>(null);
  const [live, setLive] = useState('');
  useActionToast(fetcher.data?.ok ? fetcher.data : null);
  useEffect(() => {
    if (fetcher.data && !fetcher.data.ok) setLive(fetcher.data.message);
  }, [fetcher.data]);

  const targets: Target[] = [
    ...catalogs.map((c) => ({ key: `catalog:${c.prodCatalogId}`, label: `Top of ${c.catalogName}` })),
    ...all.map((c) => ({ key: c.productCategoryId, label: c.categoryName ?? c.productCategoryId })),
  ];

  function drop(to: PlaceKey, position: number | undefined) {
    const from = drag.current;
    drag.current = null;
    if (!from) return;
    let pos = position;
    // The server places it among the others (itself left out): a move down its own list is one less.
    if (pos !== undefined && from.from === to && from.index < pos) pos -= 1;
    if (from.from === to && pos === from.index) return;
    const body = new FormData();
    body.set('intent', 'move');
    body.set('productCategoryId', from.id);
    body.set('from', from.from);
    body.set('to', to);
    if (pos !== undefined) body.set('position', String(pos));
    body.set(CSRF_FIELD, root?.csrfToken ?? '');
    fetcher.submit(body, { method: 'post' });
    setLive('Moving…');
  }

  function step(id: string, from: PlaceKey, intent: 'move-up' | 'move-down') {
    const body = new FormData();
    body.set('intent', intent);
    body.set('productCategoryId', id);
    body.set('from', from);
    body.set(CSRF_FIELD, root?.csrfToken ?? '');
    fetcher.submit(body, { method: 'post' });
  }

  return (
    <Ctx.Provider value={{ targets, drag, drop, step, busy: fetcher.state !== 'idle' }}>
      <p aria-live="polite" className="sr-only">
        {live}
      </p>
      {fetcher.data && !fetcher.data.ok && <Banner>{fetcher.data.message}</Banner>}
      {children}
    </Ctx.Provider>
  );
}

/** A catalog's header as a drop target: a category dropped here goes to the catalog's top, last. */
export function CatalogDropZone({ prodCatalogId, children }: { prodCatalogId: string; children: React.ReactNode }) {
  const ctx = useContext(Ctx);
  const [over, setOver] = useState(false);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target; the Move to menu is the keyboard way
    <div
      data-testid={`catalog-drop-${prodCatalogId}`}
      onDragOver={(e) => {
        if (!ctx?.drag.current) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        ctx?.drop(`catalog:${prodCatalogId}`, undefined);
      }}
      className={over ? 'rounded-lg bg-sky-50 ring-2 ring-sky-400' : undefined}
    >
      {children}
    </div>
  );
}

export function CategoryTree({
  nodes,
  place,
  depth = 0,
  label,
}: {
  nodes: CategoryNode[];
  /** Where these nodes sit: "catalog:<id>" or "parent:<id>"; null for categories nothing holds. */
  place: PlaceKey | null;
  depth?: number;
  label?: string;
}) {
  return (
    <ol
      aria-label={label}
      className={
        depth === 0 ? 'divide-y divide-neutral-100 border-t border-neutral-100' : 'border-l border-neutral-200'
      }
      style={depth ? { marginLeft: '1.25rem' } : undefined}
    >
      {nodes.map((n, i) => (
        <CategoryRow
          key={`${place}/${n.productCategoryId}`}
          node={n}
          place={place}
          index={i}
          count={nodes.length}
          depth={depth}
        />
      ))}
    </ol>
  );
}

function CategoryRow({
  node,
  place,
  index,
  count,
  depth,
}: {
  node: CategoryNode;
  place: PlaceKey | null;
  index: number;
  count: number;
  depth: number;
}) {
  const ctx = useContext(Ctx);
  const navigation = useNavigation();
  const [zone, setZone] = useState<'before' | 'inside' | 'after' | null>(null);
  const name = node.categoryName ?? node.productCategoryId;
  const busy = navigation.state === 'submitting' || !!ctx?.busy;
  const id = node.productCategoryId;

  function zoneOf(e: DragEvent<HTMLDivElement>) {
    const box = e.currentTarget.getBoundingClientRect();
    const y = (e.clientY - box.top) / Math.max(box.height, 1);
    return place && y < 0.25 ? 'before' : place && y > 0.75 ? 'after' : 'inside';
  }

  return (
    <li data-testid="category-row" data-category-id={id}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target; the Move to menu is the keyboard way */}
      <div
        onDragOver={(e) => {
          const from = ctx?.drag.current;
          if (!from || from.id === id) return;
          e.preventDefault();
          setZone(zoneOf(e));
        }}
        onDragLeave={() => setZone(null)}
        onDrop={(e) => {
          e.preventDefault();
          const z = zoneOf(e);
          setZone(null);
          if (!ctx?.drag.current || ctx.drag.current.id === id) return;
          if (z === 'inside' || !place) ctx.drop(`parent:${id}`, undefined);
          else ctx.drop(place, z === 'before' ? index : index + 1);
        }}
        className={`relative flex flex-wrap items-center gap-x-2 gap-y-1 px-3 py-2 sm:flex-nowrap ${
          zone === 'inside' ? 'bg-sky-50 ring-2 ring-sky-400 ring-inset' : ''
        }`}
      >
        {zone === 'before' && <span aria-hidden className="absolute inset-x-2 top-0 h-0.5 bg-sky-500" />}
        {zone === 'after' && <span aria-hidden className="absolute inset-x-2 bottom-0 h-0.5 bg-sky-500" />}
        {/* On a phone there is no dragging: the arrows and Move do it. (The span hides it: the kit's
            button sets its own display.) */}
        <span className="hidden shrink-0 sm:inline-flex">
          <Button
            variant="icon"
            draggable
            disabled={busy}
            onDragStart={(e) => {
              if (ctx) ctx.drag.current = { id, from: place ?? '', index };
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', id);
            }}
            onDragEnd={() => {
              if (ctx) ctx.drag.current = null;
            }}
            onKeyDown={(e) => {
              // The handle moves with the arrow keys too: dragging is never the only way.
              if (!place || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
              e.preventDefault();
              if (e.key === 'ArrowUp' ? index === 0 : index === count - 1) return;
              ctx?.step(id, place, e.key === 'ArrowUp' ? 'move-up' : 'move-down');
            }}
            aria-label={`Drag ${name} to move it, or press the up and down arrow keys; or use the Move to menu`}
            className="cursor-grab"
          >
            <GripVertical aria-hidden className="size-4" />
          </Button>
        </span>
        <div className="min-w-0 flex-1 basis-32">
          <Link
            to={`/manage-store/categories/${encodeURIComponent(id)}`}
            className="block truncate text-sm font-semibold text-neutral-900 hover:underline"
          >
            {name}
          </Link>
          <p className="truncate text-xs text-neutral-500">
            {id} · {node.productCount} {node.productCount === 1 ? 'product' : 'products'}
            {node.hasMore ? ' · more levels below' : ''}
          </p>
        </div>
        <div className="ml-auto flex shrink-0 items-center gap-0.5">
          {place && (
            <>
              <PostForm>
                <input type="hidden" name="productCategoryId" value={id} />
                <input type="hidden" name="from" value={place} />
                <Button
                  variant="icon"
                  type="submit"
                  name="intent"
                  value="move-up"
                  disabled={index === 0 || busy}
                  aria-label={`Move ${name} up`}
                >
                  <ArrowUp aria-hidden className="size-4" />
                </Button>
              </PostForm>
              <PostForm>
                <input type="hidden" name="productCategoryId" value={id} />
                <input type="hidden" name="from" value={place} />
                <Button
                  variant="icon"
                  type="submit"
                  name="intent"
                  value="move-down"
                  disabled={index === count - 1 || busy}
                  aria-label={`Move ${name} down`}
                >
                  <ArrowDown aria-hidden className="size-4" />
                </Button>
              </PostForm>
            </>
          )}
          <MoveMenu id={id} name={name} place={place} />
        </div>
      </div>
      {node.children.length > 0 && (
        <CategoryTree nodes={node.children} place={`parent:${id}`} depth={depth + 1} label={`Inside ${name}`} />
      )}
    </li>
  );
}

/** "Move to…": a disclosure with a select of every place and a Move button (keyboard, no JavaScript). */
function MoveMenu({ id, name, place }: { id: string; name: string; place: PlaceKey | null }) {
  const ctx = useContext(Ctx);
  const selectId = `move-${place}-${id}`.replace(/[^A-Za-z0-9_-]/g, '-');
  const targets = (ctx?.targets ?? []).filter((t) => t.key !== id && `parent:${t.key}` !== place && t.key !== place);
  return (
    <details className="group relative">
      <summary
        aria-label={`Move ${name} to…`}
        className="flex h-8 cursor-pointer list-none items-center gap-1 rounded-lg px-2 text-sm font-medium text-neutral-700 hover:bg-neutral-100 [&::-webkit-details-marker]:hidden"
      >
        Move
        <ChevronRight aria-hidden className="size-4 transition-transform group-open:rotate-90" />
      </summary>
      <div className="absolute right-0 z-20 mt-1 w-72 max-w-[calc(100vw-2rem)] rounded-xl border border-neutral-200 bg-white p-3 shadow-lg">
        <PostForm className="space-y-2">
          <input type="hidden" name="intent" value="move" />
          <input type="hidden" name="productCategoryId" value={id} />
          {place && <input type="hidden" name="from" value={place} />}
          <SelectField
            id={selectId}
            name="to"
            label={`Move ${name} to`}
            required
            defaultValue=""
            options={[
              { value: '', label: 'Choose a place…', disabled: true },
              ...targets.map((t) =>
                t.key.startsWith('catalog:')
                  ? { value: t.key, label: t.label }
                  : { value: `parent:${t.key}`, label: `Inside ${t.label}` },
              ),
            ]}
          />
          <Button type="submit" variant="primary" className="w-full">
            Move
          </Button>
        </PostForm>
      </div>
    </details>
  );
}
