import type { Address, Country } from '@app/contracts';
import { ADDRESS_FIELDS } from '@app/contracts/client';
import { useEffect, useRef, useState } from 'react';
import { data, Link, useNavigation, useSearchParams } from 'react-router';
import { AddressFields } from '../../components/ui/address-fields';
import { FormAlert, submitClass } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import { useActionToast } from '../../lib/use-action-toast';
import type { Route } from './+types/addresses';
import { AccountLayout } from './account-nav';

const FIELDS = ['contactMechId', ...ADDRESS_FIELDS, 'isDefaultShipping', 'isDefaultBilling'] as const;

export async function loader({ context }: Route.LoaderArgs) {
  return context.api.addresses();
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  if (form.get('intent') === 'remove') {
    const result = await context.api.removeAddress(String(form.get('contactMechId') ?? ''));
    return data({ result, values: null }, { status: result.ok ? 200 : result.status });
  }
  const values = Object.fromEntries(FIELDS.map((f) => [f, String(form.get(f) ?? '').slice(0, 400)])) as Record<
    (typeof FIELDS)[number],
    string
  >;
  const result = await context.api.saveAddress(values);
  return data({ result, values }, { status: result.ok ? 200 : result.status });
}

export function meta() {
  return [{ title: 'Addresses' }, { name: 'robots', content: 'noindex' }];
}

function regionName(countries: Country[], a: Address) {
  const c = countries.find((x) => x.geoId === a.countryGeoId);
  return { country: c?.name ?? a.countryGeoId, region: c?.regions.find((r) => r.geoId === a.stateProvinceGeoId)?.name };
}

function AddressCard({ a, countries, onEdit }: { a: Address; countries: Country[]; onEdit: () => void }) {
  const { country, region } = regionName(countries, a);
  return (
    <li className="flex flex-col rounded-xl border border-slate-200 p-5" data-testid="address-card">
      <div className="flex flex-wrap gap-2">
        {a.isDefaultShipping && (
          <span className="rounded-full bg-brand-xlight px-2.5 py-0.5 text-xs font-semibold text-brand">
            Default shipping
          </span>
        )}
        {a.isDefaultBilling && (
          <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700">
            Default billing
          </span>
        )}
      </div>
      <address className="mt-3 text-sm leading-6 text-slate-700 not-italic">
        <span className="font-semibold text-slate-900">{a.toName}</span>
        <br />
        {a.address1}
        {a.address2 && (
          <>
            <br />
            {a.address2}
          </>
        )}
        <br />
        {a.city}
        {region ? `, ${region}` : ''} {a.postalCode}
        <br />
        {country}
        {a.phone && (
          <>
            <br />
            {a.phone}
          </>
        )}
      </address>
      <div className="mt-4 flex gap-4 text-sm">
        <button type="button" onClick={onEdit} className="font-semibold text-brand hover:underline">
          Edit
        </button>
        <PostForm>
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="contactMechId" value={a.contactMechId} />
          <button type="submit" className="font-semibold text-slate-600 hover:text-red-700 hover:underline">
            Remove
          </button>
        </PostForm>
      </div>
    </li>
  );
}

function AddressForm({
  countries,
  initial,
  failure,
  onCancel,
}: {
  countries: Country[];
  initial: Partial<Record<(typeof FIELDS)[number], string>>;
  failure: { message: string; fieldErrors: Partial<Record<string, string>> } | null;
  onCancel: () => void;
}) {
  const navigation = useNavigation();
  const [country, setCountry] = useState(initial.countryGeoId || 'USA');
  const e = failure?.fieldErrors ?? {};
  return (
    <PostForm className="space-y-4 rounded-xl border border-slate-200 p-5" data-testid="address-form">
      <h2 className="text-lg font-semibold text-slate-900">{initial.contactMechId ? 'Edit address' : 'New address'}</h2>
      <FormAlert message={failure && Object.keys(e).length === 0 ? failure.message : null} />
      <input type="hidden" name="contactMechId" value={initial.contactMechId ?? ''} />
      <AddressFields
        countries={countries}
        initial={initial}
        errors={e}
        country={country}
        onCountryChange={setCountry}
      />
      <div className="flex flex-col gap-2 text-sm text-slate-700">
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            name="isDefaultShipping"
            defaultChecked={initial.isDefaultShipping === 'on'}
            className="size-4 accent-action"
          />
          Use as my default shipping address
        </label>
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            name="isDefaultBilling"
            defaultChecked={initial.isDefaultBilling === 'on'}
            className="size-4 accent-action"
          />
          Use as my default billing address
        </label>
      </div>
      <div className="flex gap-3">
        <button
          type="submit"
          className={`${submitClass} sm:w-auto sm:px-8`}
          disabled={navigation.state === 'submitting'}
        >
          Save address
        </button>
        {/* A link, so that without JavaScript it closes a form opened by ?new. */}
        <Link
          to={{ search: '' }}
          replace
          preventScrollReset
          onClick={onCancel}
          className="inline-flex h-11 items-center rounded-md px-4 text-sm font-semibold text-slate-700 hover:bg-slate-100"
        >
          Cancel
        </Link>
      </div>
    </PostForm>
  );
}

const asForm = (a: Address): Partial<Record<(typeof FIELDS)[number], string>> => ({
  ...a,
  address2: a.address2 ?? '',
  stateProvinceGeoId: a.stateProvinceGeoId ?? '',
  phone: a.phone ?? '',
  isDefaultShipping: a.isDefaultShipping ? 'on' : '',
  isDefaultBilling: a.isDefaultBilling ? 'on' : '',
});

export default function Addresses({ loaderData, actionData }: Route.ComponentProps) {
  const { addresses, countries } = loaderData;
  const result = actionData?.result;
  const failure = result && !result.ok ? result : null;
  useActionToast(result);
  // The form is open while editing, after a refusal (with what was typed), or when there is no address yet.
  const [editing, setEditing] = useState<Partial<Record<(typeof FIELDS)[number], string>> | null>(null);
  const last = useRef(result);
  useEffect(() => {
    if (result === last.current) return;
    last.current = result;
    setEditing(result?.ok ? null : (actionData?.values ?? null));
  }, [result, actionData]);
  // ?new opens an empty form: the "Add an address" link works without JavaScript.
  const [params] = useSearchParams();
  const open =
    editing ??
    (failure && actionData?.values ? actionData.values : null) ??
    (addresses.length === 0 || (params.has('new') && !result?.ok) ? {} : null);

  return (
    <AccountLayout title="Addresses">
      {addresses.length > 0 && (
        <ul className="grid gap-4 sm:grid-cols-2" data-testid="address-list">
          {addresses.map((a) => (
            <AddressCard key={a.contactMechId} a={a} countries={countries} onEdit={() => setEditing(asForm(a))} />
          ))}
        </ul>
      )}
      <div className="mt-6">
        {open ? (
          <AddressForm
            key={open.contactMechId ?? 'new'}
            countries={countries}
            initial={open}
            failure={failure}
            onCancel={() => setEditing(null)}
          />
        ) : (
          <Link
            to="?new"
            preventScrollReset
            onClick={(ev) => {
              ev.preventDefault();
              setEditing({});
            }}
            className={`${submitClass} inline-flex items-center sm:w-auto sm:px-8`}
          >
            Add an address
          </Link>
        )}
      </div>
    </AccountLayout>
  );
}
