export { cancelRequestModule } from './cancel-request.module';
export { cancelRequestPages } from './cancel-request.pages';
export { cancelRequestRoutes } from './cancel-request.routes';
export {
  type CancelApproval,
  type CancelDecisionRefusal,
  type CancelRequestService,
  CLOSE_STORE_JOB,
  createCancelRequestService,
} from './cancel-request.service';
export { CANCEL_REQUEST_TRANSITIONS, CANCEL_STATUS_LABELS, canTransitionCancelRequest } from './cancel-request-state';
export { transitionCancelRequest } from './cancel-request-transition';
