export { addStartingTaxes } from './starting-taxes';
export { taxModule } from './tax.module';
export { createTaxService, DEFAULT_TAX_SETTINGS, type TaxService } from './tax.service';
export {
  computeTax,
  goodsPaid,
  type RefundableOrder,
  rateOf,
  refundTaxShare,
  spread,
  type TaxGroup,
  type TaxResult,
  type TaxRule,
} from './tax-math';
