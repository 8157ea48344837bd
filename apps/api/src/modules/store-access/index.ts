export { storeAccessModule } from './store-access.module';
export {
  CUSTOMER_INVITATION_TTL_MS,
  createStoreAccessService,
  type RegistrationPolicy,
  type StoreAccessService,
} from './store-access.service';
