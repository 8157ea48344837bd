import type { PageLoadContext } from '@app/contracts';

declare module 'react-router' {
  interface AppLoadContext extends PageLoadContext {}
}
