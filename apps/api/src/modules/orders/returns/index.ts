export { RETURN_TRANSITIONS } from './return-state';
export {
  type ReturnTransitionOptions,
  type ReturnTransitionRefusal,
  returnTransitionRefused,
  transitionReturn,
} from './return-transition';
export { returnsModule } from './returns.module';
