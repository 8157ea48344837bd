import type { Facets } from '@app/contracts';
import { priceBandLabel } from '@app/contracts/client';
import { type FormEvent, type ReactNode, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { bandValue, type ListState, OPTION_PREFIX, queryFromForm } from '../../lib/catalog-params';

/** Params the filter form carries along unchanged (the sort has its own control). */
const KEPT = ['sort', 'pageSize'] as const;

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="border-t border-slate-200 py-5 first:border-t-0 first:pt-0">
      <legend className="float-left mb-3 w-full text-sm font-semibold text-slate-900">{legend}</legend>
      <div className="clear-left space-y-1">{children}</div>
    </fieldset>
  );
}

function Choice({
  id,
  type,
  name,
  value,
  checked,
  label,
  count,
  testId,
}: {
  id: string;
  type: 'checkbox' | 'radio';
  name: string;
  value: string;
  checked: boolean;
  label: string;
  count?: number;
  testId?: string;
}) {
  return (
    <div className="flex items-center gap-3 rounded-md py-1.5">
      <input
        id={id}
        type={type}
        name={name}
        value={value}
        defaultChecked={checked}
        className="size-4 shrink-0 accent-action"
        data-testid={testId}
      />
      <label htmlFor={id} className="flex flex-1 cursor-pointer items-baseline justify-between gap-2 text-sm">
        <span className="text-slate-700">{label}</span>
        {count !== undefined && (
          <span className="text-xs text-slate-500 tabular-nums" data-testid="facet-count">
            {count}
          </span>
        )}
      </label>
    </div>
  );
}

interface FacetOption {
  value: string;
  label: string;
  count: number;
  checked: boolean;
}

/**
 * One facet as a fieldset of choices. Radios get an "any" choice first (value "") so a shopper can
 * drop the filter; ids use the option's index, since values (brand names) may hold spaces.
 */
function FacetGroup({
  legend,
  type,
  name,
  idPrefix,
  anyLabel,
  testId,
  options,
}: {
  legend: string;
  type: 'checkbox' | 'radio';
  name: string;
  idPrefix: string;
  anyLabel?: string;
  testId: string;
  options: FacetOption[];
}) {
  if (options.length === 0) return null;
  return (
    <Group legend={legend}>
      {anyLabel && (
        <Choice
          id={`${idPrefix}-any`}
          type={type}
          name={name}
          value=""
          checked={!options.some((o) => o.checked)}
          label={anyLabel}
        />
      )}
      {options.map((o, i) => (
        <Choice
          key={o.value}
          id={`${idPrefix}-${i}`}
          type={type}
          name={name}
          value={o.value}
          checked={o.checked}
          label={o.label}
          count={o.count}
          testId={testId}
        />
      ))}
    </Group>
  );
}

/**
 * A real GET form: without JavaScript the Apply button submits it; with JavaScript every change
 * applies at once and the URL is tidied (brands joined) so a view has one address.
 */
export function FilterForm({
  facets,
  state,
  pathname,
  search,
  currency,
  idPrefix,
  showCategories = false,
}: {
  facets: Facets;
  state: ListState;
  pathname: string;
  search: URLSearchParams;
  currency: string;
  /** The form is drawn twice (sidebar, mobile disclosure): ids must differ. */
  idPrefix: string;
  showCategories?: boolean;
}) {
  const navigate = useNavigate();
  const apply = (form: HTMLFormElement) =>
    navigate(`${pathname}${queryFromForm(form)}`, { preventScrollReset: true, replace: false });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    apply(e.currentTarget);
  };

  const brands = [...facets.brands];
  for (const b of state.brands) {
    if (!brands.some((x) => x.value === b)) brands.push({ value: b, label: b, count: 0 });
  }
  const prices = [...facets.prices];
  if (state.price && !prices.some((p) => p.min === state.price?.min && p.max === state.price?.max)) {
    prices.push({ ...state.price, label: '', count: 0 });
    prices.sort((a, b) => a.min - b.min);
  }
  const categories = [...facets.categories];
  if (state.category && !categories.some((c) => c.value === state.category)) {
    categories.push({ value: state.category, label: state.category, count: 0 });
  }
  const priceValue = state.price ? bandValue(state.price) : '';
  // Option values (Finish: Brass), one group per option; a chosen value that no longer matches
  // stays listed (count 0) so it can be unticked.
  const options = facets.options.map((o) => ({ ...o, values: [...o.values] }));
  for (const c of state.options) {
    let group = options.find((o) => o.value === c.name);
    if (!group) {
      group = { name: c.name, value: c.name, values: [] };
      options.push(group);
    }
    if (!group.values.some((v) => v.value === c.value)) group.values.push({ value: c.value, label: c.value, count: 0 });
  }
  const optionChosen = (name: string, value: string) => state.options.some((o) => o.name === name && o.value === value);

  // The boxes follow the URL (Back, a removed chip) without re-mounting the form, which would drop
  // the keyboard focus of the shopper who just ticked one.
  const formRef = useRef<HTMLFormElement>(null);
  const query = search.toString();
  useEffect(() => {
    for (const el of Array.from(formRef.current?.elements ?? [])) {
      if (!(el instanceof HTMLInputElement) || (el.type !== 'checkbox' && el.type !== 'radio')) continue;
      el.checked =
        el.name === 'brand'
          ? state.brands.includes(el.value)
          : el.name === 'price'
            ? el.value === priceValue
            : el.name === 'inStock'
              ? state.inStock
              : el.name === 'productCategoryId'
                ? el.value === (state.category ?? '')
                : el.name.startsWith(OPTION_PREFIX)
                  ? optionChosen(el.name.slice(OPTION_PREFIX.length), el.value)
                  : el.checked;
    }
  }, [query]);

  return (
    <form
      method="get"
      action={pathname}
      onSubmit={onSubmit}
      onChange={(e) => apply(e.currentTarget)}
      aria-label="Filters"
      data-testid={`filters-${idPrefix}`}
      ref={formRef}
    >
      {KEPT.map((k) => {
        const v = search.get(k);
        return v ? <input key={k} type="hidden" name={k} value={v} /> : null;
      })}
      {showCategories && (
        <FacetGroup
          legend="Category"
          type="radio"
          name="productCategoryId"
          idPrefix={`${idPrefix}-cat`}
          anyLabel="All categories"
          testId="facet-category"
          options={categories.map((c) => ({ ...c, checked: state.category === c.value }))}
        />
      )}
      <FacetGroup
        legend="Brand"
        type="checkbox"
        name="brand"
        idPrefix={`${idPrefix}-brand`}
        testId="facet-brand"
        options={brands.map((b) => ({ ...b, checked: state.brands.includes(b.value) }))}
      />
      <FacetGroup
        legend="Price"
        type="radio"
        name="price"
        idPrefix={`${idPrefix}-price`}
        anyLabel="Any price"
        testId="facet-price"
        options={prices.map((p) => {
          const value = bandValue(p);
          return {
            value,
            label: priceBandLabel(p.min, p.max, currency),
            count: p.count,
            checked: priceValue === value,
          };
        })}
      />
      {options.map((o, i) => (
        <FacetGroup
          key={o.value}
          legend={o.name}
          type="checkbox"
          name={`${OPTION_PREFIX}${o.value}`}
          idPrefix={`${idPrefix}-opt${i}`}
          testId="facet-option"
          options={o.values.map((v) => ({ ...v, checked: optionChosen(o.value, v.value) }))}
        />
      ))}
      <Group legend="Availability">
        <Choice
          id={`${idPrefix}-in-stock`}
          type="checkbox"
          name="inStock"
          value="true"
          checked={state.inStock}
          label="In stock only"
          count={facets.inStock}
          testId="facet-in-stock"
        />
      </Group>
      <noscript>
        <button
          type="submit"
          className="mt-2 h-11 w-full rounded-md bg-action px-4 text-sm font-semibold text-white hover:opacity-90"
        >
          Apply filters
        </button>
      </noscript>
    </form>
  );
}
