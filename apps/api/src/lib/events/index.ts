export {
  createEventBus,
  type Emitter,
  EVENTS_CHANNEL,
  type EventBus,
  type EventBusOptions,
  type EventHandler,
  NOTIFY_MAX_BYTES,
  wireMessage,
} from './event-bus';
export { type AppEvents, EVENT_NAMES, type EventName, eventSchemas, type WireEvent } from './event-types';
