export { type PagesOptions, registerPages } from './pages';
