import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';

const PRODUCT_DETAIL = /getproductdetails/;
/** A product page (/{slug}/{productId}) is the page whose data comes from getproductdetails. */
const PRODUCT_PAGE = /^\/(?!categories\/|product\/|page\/|order\/|account\/|manage-store\/|auth\/)[^/]+\/[^/]+\/?$/;

let active = 0;
const listeners = new Set<(n: number) => void>();

/** Counts requests whose URL matches getproductdetails. */
function instrumentFetch() {
  if (typeof window === 'undefined' || (window.fetch as { __bar?: boolean }).__bar) return;
  const original = window.fetch.bind(window);
  const wrapped = async (...args: Parameters<typeof fetch>) => {
    const url = typeof args[0] === 'string' ? args[0] : args[0] instanceof URL ? args[0].href : args[0].url;
    const tracked = PRODUCT_DETAIL.test(url);
    if (tracked) {
      active++;
      for (const l of listeners) l(active);
    }
    try {
      return await original(...args);
    } finally {
      if (tracked) {
        active--;
        for (const l of listeners) l(active);
      }
    }
  };
  (wrapped as { __bar?: boolean }).__bar = true;
  window.fetch = wrapped as typeof fetch;
}

export function LoadingBar() {
  const navigation = useNavigation();
  const [requests, setRequests] = useState(0);
  useEffect(() => {
    instrumentFetch();
    listeners.add(setRequests);
    return () => {
      listeners.delete(setRequests);
    };
  }, []);
  const toProduct = navigation.state === 'loading' && PRODUCT_PAGE.test(navigation.location.pathname);
  if (!toProduct && requests === 0) return null;
  return (
    <div
      role="progressbar"
      aria-label="Loading product"
      className="fixed inset-x-0 top-0 z-[150] h-1 overflow-hidden bg-brand-light"
      data-testid="loading-bar"
    >
      <div className="animate-loading-bar h-full w-2/5 bg-action" />
    </div>
  );
}
