export { COUNTRIES } from './countries';
