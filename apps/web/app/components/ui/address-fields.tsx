import type { AddressField, Country } from '@app/contracts';
import { useContext, useRef } from 'react';
import { useDefaultChangedBeforeHydration, useValueChangedBeforeHydration } from '../../lib/use-value-before-hydration';
import { Field, FocusField } from './form-field';

const selectClass =
  'h-11 w-full rounded-md border bg-white px-3 text-[15px] focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand-light';

/** A labelled select with its error below, like `Field` for text. */
export function SelectField({
  label,
  name,
  options,
  value,
  defaultValue,
  onChange,
  error,
  autoComplete,
}: {
  label: string;
  name: string;
  options: [string, string][];
  value?: string;
  defaultValue?: string;
  onChange?: (v: string) => void;
  error?: string | undefined;
  autoComplete?: string;
}) {
  const ref = useRef<HTMLSelectElement>(null);
  useValueChangedBeforeHydration(ref, value, onChange);
  useDefaultChangedBeforeHydration(ref, value === undefined ? defaultValue : undefined, onChange);
  const autoFocus = useContext(FocusField) === name;
  return (
    <div>
      <label htmlFor={name} className="mb-1.5 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        ref={ref}
        id={name}
        name={name}
        autoComplete={autoComplete}
        {...(value !== undefined ? { value } : { defaultValue })}
        // biome-ignore lint/a11y/noAutofocus: only on a page that answers a refused post (FocusField).
        autoFocus={autoFocus || undefined}
        onChange={(ev) => onChange?.(ev.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${name}-error` : undefined}
        className={`${selectClass} ${error ? 'border-red-600' : 'border-slate-300'}`}
      >
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${name}-error`} className="mt-1.5 text-sm font-medium text-red-700" data-testid={`error-${name}`}>
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The fields of a postal address, as the account's address book and checkout ask for them. The
 * country is the caller's (checkout reloads rates when it changes); the region list follows it.
 */
export function AddressFields({
  countries,
  initial,
  errors: e,
  country,
  onCountryChange,
  onRegionChange,
  onPostalCodeChange,
}: {
  countries: Country[];
  initial: Partial<Record<AddressField, string>>;
  errors: Partial<Record<string, string>>;
  country: string;
  onCountryChange: (geoId: string) => void;
  onRegionChange?: (geoId: string) => void;
  /** Checkout: carriers' rates depend on the postal code, so it reloads them as one is typed. */
  onPostalCodeChange?: (code: string) => void;
}) {
  const regions = countries.find((c) => c.geoId === country)?.regions ?? [];
  return (
    <>
      <Field label="Full name" name="toName" autoComplete="name" defaultValue={initial.toName} error={e.toName} />
      <Field
        label="Street address"
        name="address1"
        autoComplete="address-line1"
        defaultValue={initial.address1}
        error={e.address1}
      />
      <Field
        label="Apartment, suite, etc. (optional)"
        name="address2"
        autoComplete="address-line2"
        required={false}
        defaultValue={initial.address2 ?? ''}
        error={e.address2}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="City" name="city" autoComplete="address-level2" defaultValue={initial.city} error={e.city} />
        <Field
          label="Postal code"
          name="postalCode"
          autoComplete="postal-code"
          defaultValue={initial.postalCode}
          error={e.postalCode}
          {...(onPostalCodeChange ? { onChange: onPostalCodeChange } : {})}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Country"
          name="countryGeoId"
          autoComplete="country"
          value={country}
          onChange={onCountryChange}
          options={countries.map((c) => [c.geoId, c.name])}
          error={e.countryGeoId}
        />
        {regions.length > 0 && (
          <SelectField
            key={country}
            label="State or region"
            name="stateProvinceGeoId"
            autoComplete="address-level1"
            defaultValue={initial.stateProvinceGeoId ?? ''}
            {...(onRegionChange ? { onChange: onRegionChange } : {})}
            options={[['', 'Choose…'], ...regions.map((r) => [r.geoId, r.name] as [string, string])]}
            error={e.stateProvinceGeoId}
          />
        )}
      </div>
      <Field
        label="Phone (optional)"
        name="phone"
        type="tel"
        autoComplete="tel"
        required={false}
        defaultValue={initial.phone ?? ''}
        error={e.phone}
      />
    </>
  );
}
