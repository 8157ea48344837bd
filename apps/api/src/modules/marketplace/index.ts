export { eligibleProducts, FEED_PAGE_SIZE, writeFeed } from './feed-builder';
export { FEED_TAIL, feedHead, G_NS, itemXml, plainText, xmlText } from './feed-xml';
export { marketplaceModule } from './marketplace.module';
export { marketplacePages } from './marketplace.pages';
export { marketplaceRoutes } from './marketplace.routes';
export {
  BONANZA,
  createMarketplaceService,
  FEED_PATH,
  feedToken,
  type MarketplaceService,
  sealContext,
} from './marketplace.service';
