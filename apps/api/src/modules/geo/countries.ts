/**
 * Countries we ship to, with the states, provinces or regions their addresses need
 * (geo ids in the OFBiz style the existing clients expect: USA, US_CA). Reference data, the same for
 * every store: kept in code, not in a table.
 */
type Row = [geoId: string, iso2: string, name: string, regions: [string, string][]];

// biome-ignore format: one country per line reads best
const ROWS: Row[] = [
  ['AUS', 'AU', 'Australia', [['AU_ACT', 'Australian Capital Territory'], ['AU_NSW', 'New South Wales'], ['AU_NT', 'Northern Territory'], ['AU_QLD', 'Queensland'], ['AU_SA', 'South Australia'], ['AU_TAS', 'Tasmania'], ['AU_VIC', 'Victoria'], ['AU_WA', 'Western Australia']]],
  ['AUT', 'AT', 'Austria', []],
  ['BEL', 'BE', 'Belgium', []],
  ['CAN', 'CA', 'Canada', [['CA_AB', 'Alberta'], ['CA_BC', 'British Columbia'], ['CA_MB', 'Manitoba'], ['CA_NB', 'New Brunswick'], ['CA_NL', 'Newfoundland and Labrador'], ['CA_NS', 'Nova Scotia'], ['CA_NT', 'Northwest Territories'], ['CA_NU', 'Nunavut'], ['CA_ON', 'Ontario'], ['CA_PE', 'Prince Edward Island'], ['CA_QC', 'Quebec'], ['CA_SK', 'Saskatchewan'], ['CA_YT', 'Yukon']]],
  ['DNK', 'DK', 'Denmark', []],
  ['FIN', 'FI', 'Finland', []],
  ['FRA', 'FR', 'France', []],
  ['DEU', 'DE', 'Germany', []],
  ['IND', 'IN', 'India', []],
  ['IRL', 'IE', 'Ireland', []],
  ['ITA', 'IT', 'Italy', []],
  ['JPN', 'JP', 'Japan', []],
  ['MEX', 'MX', 'Mexico', [['MX_AGU', 'Aguascalientes'], ['MX_BCN', 'Baja California'], ['MX_BCS', 'Baja California Sur'], ['MX_CAM', 'Campeche'], ['MX_CHP', 'Chiapas'], ['MX_CHH', 'Chihuahua'], ['MX_CMX', 'Ciudad de Mexico'], ['MX_COA', 'Coahuila'], ['MX_COL', 'Colima'], ['MX_DUR', 'Durango'], ['MX_GUA', 'Guanajuato'], ['MX_GRO', 'Guerrero'], ['MX_HID', 'Hidalgo'], ['MX_JAL', 'Jalisco'], ['MX_MEX', 'Mexico'], ['MX_MIC', 'Michoacan'], ['MX_MOR', 'Morelos'], ['MX_NAY', 'Nayarit'], ['MX_NLE', 'Nuevo Leon'], ['MX_OAX', 'Oaxaca'], ['MX_PUE', 'Puebla'], ['MX_QUE', 'Queretaro'], ['MX_ROO', 'Quintana Roo'], ['MX_SLP', 'San Luis Potosi'], ['MX_SIN', 'Sinaloa'], ['MX_SON', 'Sonora'], ['MX_TAB', 'Tabasco'], ['MX_TAM', 'Tamaulipas'], ['MX_TLA', 'Tlaxcala'], ['MX_VER', 'Veracruz'], ['MX_YUC', 'Yucatan'], ['MX_ZAC', 'Zacatecas']]],
  ['NLD', 'NL', 'Netherlands', []],
  ['NZL', 'NZ', 'New Zealand', []],
  ['NOR', 'NO', 'Norway', []],
  ['POL', 'PL', 'Poland', []],
  ['PRT', 'PT', 'Portugal', []],
  ['SGP', 'SG', 'Singapore', []],
  ['ESP', 'ES', 'Spain', []],
  ['SWE', 'SE', 'Sweden', []],
  ['CHE', 'CH', 'Switzerland', []],
  ['GBR', 'GB', 'United Kingdom', []],
  ['USA', 'US', 'United States', [['US_AL', 'Alabama'], ['US_AK', 'Alaska'], ['US_AZ', 'Arizona'], ['US_AR', 'Arkansas'], ['US_CA', 'California'], ['US_CO', 'Colorado'], ['US_CT', 'Connecticut'], ['US_DE', 'Delaware'], ['US_DC', 'District of Columbia'], ['US_FL', 'Florida'], ['US_GA', 'Georgia'], ['US_HI', 'Hawaii'], ['US_ID', 'Idaho'], ['US_IL', 'Illinois'], ['US_IN', 'Indiana'], ['US_IA', 'Iowa'], ['US_KS', 'Kansas'], ['US_KY', 'Kentucky'], ['US_LA', 'Louisiana'], ['US_ME', 'Maine'], ['US_MD', 'Maryland'], ['US_MA', 'Massachusetts'], ['US_MI', 'Michigan'], ['US_MN', 'Minnesota'], ['US_MS', 'Mississippi'], ['US_MO', 'Missouri'], ['US_MT', 'Montana'], ['US_NE', 'Nebraska'], ['US_NV', 'Nevada'], ['US_NH', 'New Hampshire'], ['US_NJ', 'New Jersey'], ['US_NM', 'New Mexico'], ['US_NY', 'New York'], ['US_NC', 'North Carolina'], ['US_ND', 'North Dakota'], ['US_OH', 'Ohio'], ['US_OK', 'Oklahoma'], ['US_OR', 'Oregon'], ['US_PA', 'Pennsylvania'], ['US_PR', 'Puerto Rico'], ['US_RI', 'Rhode Island'], ['US_SC', 'South Carolina'], ['US_SD', 'South Dakota'], ['US_TN', 'Tennessee'], ['US_TX', 'Texas'], ['US_UT', 'Utah'], ['US_VT', 'Vermont'], ['US_VA', 'Virginia'], ['US_WA', 'Washington'], ['US_WV', 'West Virginia'], ['US_WI', 'Wisconsin'], ['US_WY', 'Wyoming']]],
];

export const COUNTRIES = ROWS.map(([geoId, iso2, name, regions]) => ({
  geoId,
  iso2,
  name,
  regions: regions.map(([id, n]) => ({ geoId: id, name: n })),
}));

/** The countries an address may name, with their regions, as forms list them. */
export const countryChoices = () => COUNTRIES.map(({ geoId, name, regions }) => ({ geoId, name, regions }));
