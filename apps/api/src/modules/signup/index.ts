export {
  createProvisioner,
  PROVISION_STEPS,
  type ProvisionedStore,
  type Provisioner,
  type ProvisionInput,
  type ProvisionRefusal,
  type ProvisionStep,
  provisionIds,
} from './provision';
export { signupModule } from './signup.module';
export { SIGNUP_LIMITS, type SignupService } from './signup.service';
