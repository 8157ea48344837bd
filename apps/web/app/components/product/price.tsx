import { formatMoney } from '@app/contracts/client';

/** Sale price with the list price struck through, or the one price; names both for screen readers. */
export function Price({
  price,
  compareAt,
  currency,
  size = 'md',
  from = false,
}: {
  price: number;
  /** The list price when the item is on sale; ignored unless higher than the price. */
  compareAt?: number | null;
  currency: string;
  size?: 'md' | 'lg';
  /** The lowest of several prices (a product whose variants differ): "From $12.00". */
  from?: boolean;
}) {
  const onSale = compareAt != null && compareAt > price;
  const big = size === 'lg';
  return (
    <p className={`flex flex-wrap items-baseline gap-x-2 ${big ? 'text-2xl' : 'text-[15px]'}`} data-testid="price">
      {from && (
        <span className={`text-slate-600 ${big ? 'text-base' : 'text-sm'}`} data-testid="price-from">
          From
        </span>
      )}
      {onSale && <span className="sr-only">Sale price</span>}
      <span
        className={`font-semibold ${onSale ? 'text-red-700' : 'text-slate-900'}`}
        data-testid="price-current"
        data-amount={price}
      >
        {formatMoney(price, currency)}
      </span>
      {onSale && (
        <>
          <span className="sr-only">Regular price</span>
          <s className={`text-slate-500 ${big ? 'text-base' : 'text-sm'}`} data-testid="price-compare">
            {formatMoney(compareAt, currency)}
          </s>
        </>
      )}
    </p>
  );
}
