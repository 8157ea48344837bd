export { draftStatus } from './draft-status';
export { draftsModule } from './drafts.module';
export { draftsPages } from './drafts.pages';
export { draftsRoutes } from './drafts.routes';
export {
  createDraftsService,
  type DraftKind,
  type DraftState,
  type DraftsService,
  type DraftVersion,
  defineDraftKind,
} from './drafts.service';
