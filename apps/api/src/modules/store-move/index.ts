// Moving a store between databases (decision 123): copy, catch up, hold writes, switch, clear.
export { storeMoveModule } from './store-move.module';
export { MOVE_JOB, NOT_MOVED, PLATFORM_TABLES, type StoreMoveService } from './store-move.service';
