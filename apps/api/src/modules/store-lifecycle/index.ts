export { storeLifecycleGate } from './lifecycle-gate';
export { type LifecyclePages, lifecyclePages } from './lifecycle-page';
export {
  apiRefusal,
  dashboardFormRefusal,
  dashboardLifecycle,
  isReadOnly,
  type LifecyclePageKind,
  lifecyclePageKind,
  readOnlyRefusal,
  SIGN_IN_API_ROUTES,
  stateOf,
} from './lifecycle-rules';
export { storeLifecycleModule } from './store-lifecycle.module';
export {
  auditActorName,
  createStoreLifecycleService,
  type PlatformActor,
  type StoreLifecycleService,
  type StoreTransition,
  type StoreTransitionRefusal,
  type TransitionOptions,
} from './store-lifecycle.service';
