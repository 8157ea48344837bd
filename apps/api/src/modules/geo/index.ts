export { COUNTRIES, countryChoices } from './countries';
