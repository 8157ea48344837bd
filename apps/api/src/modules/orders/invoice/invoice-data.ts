import { type Order, orderLineVariantText, type StoreDetails } from '@app/contracts';
import { COUNTRIES } from '../../geo/index';
import type { InvoiceData } from './invoice-pdf';

const countryName = (geoId: string | null) => COUNTRIES.find((c) => c.geoId === geoId)?.name ?? geoId ?? '';
const regionName = (countryGeoId: string, geoId: string | null) =>
  COUNTRIES.find((c) => c.geoId === countryGeoId)?.regions.find((r) => r.geoId === geoId)?.name ?? geoId;

/** An order and its store, as the invoice prints them. */
export function invoiceData(order: Order, store: StoreDetails, hostName: string, taxNumber = ''): InvoiceData {
  const a = store.companyAddress;
  const s = order.shipTo;
  const phone = [store.companyContact.countryCode, store.companyContact.areaCode, store.companyContact.contactNumber]
    .filter(Boolean)
    .join(' ');
  return {
    store: {
      name: store.companyName || store.storeName,
      addressLines: [
        a.address1,
        a.address2,
        [a.city, a.postalCode].filter(Boolean).join(' '),
        a.countryGeoId ? countryName(a.countryGeoId) : null,
      ].filter((x): x is string => Boolean(x)),
      email: store.emailAddress,
      phone: phone || null,
      hostName,
      brandRgb: store.themeColors.primary,
      taxNumber: taxNumber || null,
    },
    order: {
      orderId: order.orderId,
      placedAt: new Date(order.placedAt),
      statusLabel: order.statusLabel,
      currency: order.currency,
      customer: { name: s.toName, email: order.email },
      shipTo: [
        s.toName,
        s.address1,
        s.address2,
        [s.city, regionName(s.countryGeoId, s.stateProvinceGeoId), s.postalCode].filter(Boolean).join(' '),
        countryName(s.countryGeoId),
        s.phone,
      ].filter((x): x is string => Boolean(x)),
      billTo: null,
      payment: order.payment,
      shippingMethod: order.shippingMethod,
      lines: order.lines.map((l) => ({
        name: l.productName,
        productId: l.productId,
        // "Brass / Large · SKU" (decision 112), then the configuration's choices, under the name.
        options: [orderLineVariantText(l), l.optionsText].filter(Boolean).join('; ') || null,
        quantity: l.quantity,
        unitPriceMinor: l.unitPrice,
        lineTotalMinor: l.lineTotal,
      })),
      subtotalMinor: order.subtotal,
      discountMinor: order.discount,
      promoCode: order.promoCode,
      shippingMinor: order.shipping,
      taxMinor: order.tax,
      taxIncluded: order.taxIncluded,
      totalMinor: order.total,
      refunds: order.refunds.map((r) => ({
        at: new Date(r.at),
        reason: r.reason,
        amountMinor: r.amount,
        taxMinor: r.taxAmount,
      })),
    },
  };
}
