export {
  auditedProduct,
  newProductId,
  type ProductWriteError,
  type ProductWriteResult,
  writeProduct,
} from './product-writer';
