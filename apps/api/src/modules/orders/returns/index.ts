export {
  canTransitionReturn,
  HOLDING_RETURN_STATUSES,
  RETURN_TRANSITIONS,
  RETURNABLE_ORDER_STATUSES,
} from './return-state';
export {
  type ReturnRow,
  type ReturnTransitionOptions,
  type ReturnTransitionRefusal,
  type ReturnTransitionResult,
  returnTransitionRefused,
  transitionReturn,
} from './return-transition';
export { returnsModule } from './returns.module';
export { returnsPages } from './returns.pages';
export { returnsRoutes } from './returns.routes';
export {
  createReturnsService,
  orderReturns,
  type RequestReturnRefusal,
  type ReturnsService,
} from './returns.service';
