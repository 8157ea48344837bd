import type { AddressInput } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { checkPlace } from './addresses.service';

/**
 * checkPlace answers an address we cannot deliver to as a returned refusal on the field at fault
 * (what the address book, the checkout page and the API all show), never as a throw.
 */
const home: AddressInput = {
  toName: 'Sam',
  address1: '500 Howard St',
  address2: null,
  phone: null,
  city: 'San Francisco',
  postalCode: '94105',
  countryGeoId: 'USA',
  stateProvinceGeoId: 'US_CA',
};

describe('checkPlace', () => {
  it('accepts a place we ship to', () => {
    expect(checkPlace(home)).toEqual({ ok: true, value: undefined });
    expect(checkPlace({ ...home, countryGeoId: 'GBR', stateProvinceGeoId: null, postalCode: 'SW1A 1AA' }).ok).toBe(
      true,
    );
  });

  it('refuses a country we do not ship to, on its field', () => {
    expect(checkPlace({ ...home, countryGeoId: 'ATA' })).toEqual({
      ok: false,
      status: 400,
      code: 'BAD_REQUEST',
      message: 'countryGeoId: we do not ship to this country.',
      field: 'countryGeoId',
      fieldMessage: 'We do not ship to this country.',
    });
  });

  it('refuses a missing, foreign or unwanted region, and a postal code not of the country', () => {
    const missing = checkPlace({ ...home, stateProvinceGeoId: null });
    expect(missing).toMatchObject({ ok: false, status: 400, field: 'stateProvinceGeoId' });
    expect(!missing.ok && missing.fieldMessage).toMatch(/^Please choose a state or region of /);
    expect(checkPlace({ ...home, stateProvinceGeoId: 'CA_ON' })).toMatchObject({
      ok: false,
      field: 'stateProvinceGeoId',
    });
    expect(checkPlace({ ...home, countryGeoId: 'GBR', postalCode: 'SW1A 1AA' })).toMatchObject({
      ok: false,
      field: 'stateProvinceGeoId',
    });
    const zip = checkPlace({ ...home, postalCode: 'ABCDE' });
    expect(zip).toMatchObject({ ok: false, status: 400, code: 'BAD_REQUEST', field: 'postalCode' });
    expect(!zip.ok && zip.message).toContain('(for example 94109 or 94109-1234)');
  });
});
