import { Mail, MapPin, Phone } from 'lucide-react';
import { useRouteLoaderData } from 'react-router';
import { ADDRESS_PLACEHOLDER, EMAIL_PLACEHOLDER, PHONE_PLACEHOLDER } from '../../components/layout/footer';
import { PageContainer, PageTitle } from '../../components/ui/page';
import type { loader as rootLoader } from '../../root';

export default function ContactPage() {
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const store = root?.shell.store;
  if (!store) return null;
  const a = store.companyAddress;
  const address = [a.address1, a.address2, a.city, a.postalCode].filter(Boolean).join(', ');
  const c = store.companyContact;
  const phone = c.contactNumber
    ? [c.countryCode, c.areaCode && `(${c.areaCode})`, c.contactNumber].filter(Boolean).join(' ')
    : '';
  return (
    <PageContainer narrow>
      <PageTitle lead="Questions about an order or a product? We are happy to help.">
        Contact {store.companyName || store.storeName}
      </PageTitle>
      <ul className="grid gap-4 sm:grid-cols-3">
        <li className="rounded-xl border border-slate-200 p-5">
          <MapPin aria-hidden className="size-5 text-brand" />
          <p className="mt-3 text-sm font-semibold text-slate-900">Address</p>
          <p className="mt-1 text-sm text-slate-600">{address || ADDRESS_PLACEHOLDER}</p>
        </li>
        <li className="rounded-xl border border-slate-200 p-5">
          <Phone aria-hidden className="size-5 text-brand" />
          <p className="mt-3 text-sm font-semibold text-slate-900">Phone</p>
          <p className="mt-1 text-sm text-slate-600">{phone || PHONE_PLACEHOLDER}</p>
        </li>
        <li className="rounded-xl border border-slate-200 p-5">
          <Mail aria-hidden className="size-5 text-brand" />
          <p className="mt-3 text-sm font-semibold text-slate-900">Email</p>
          <p className="mt-1 text-sm break-all text-slate-600">{store.emailAddress || EMAIL_PLACEHOLDER}</p>
        </li>
      </ul>
    </PageContainer>
  );
}
