import type { ContactResult } from '@app/contracts';
import { CircleCheck, Mail, MapPin, Phone } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { data, Link, useNavigation, useRouteLoaderData } from 'react-router';
import { ADDRESS_PLACEHOLDER, EMAIL_PLACEHOLDER, PHONE_PLACEHOLDER } from '../../components/layout/footer';
import { PageContainer, PageTitle } from '../../components/ui/page';
import { PostForm } from '../../components/ui/post-form';
import { useToastOnArrival } from '../../components/ui/toast';
import { withRootMeta } from '../../lib/meta';
import type { loader as rootLoader } from '../../root';
import type { Route } from './+types/contact';

type Field = 'name' | 'email' | 'message';
const LIMITS: Record<Field, number> = { name: 100, email: 254, message: 2000 };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const values = {
    name: String(form.get('name') ?? '').slice(0, 4 * LIMITS.name),
    email: String(form.get('email') ?? '').slice(0, 4 * LIMITS.email),
    message: String(form.get('message') ?? '').slice(0, 4 * LIMITS.message),
  };
  const result: ContactResult = await context.api.sendContactMessage(values);
  if (result.ok) return { result, values: { name: values.name.trim(), email: values.email.trim(), message: '' } };
  return data({ result, values }, { status: result.status });
}

export function meta({ matches }: Route.MetaArgs) {
  const root = matches.find((m) => m?.id === 'root')?.data as Awaited<ReturnType<typeof rootLoader>> | undefined;
  return withRootMeta(matches, [{ title: `Contact us | ${root?.shell.store.storeName ?? ''}` }]);
}

function TextField({
  name,
  label,
  type = 'text',
  autoComplete,
  defaultValue,
  error,
  multiline = false,
  minLength,
  hint,
}: {
  name: Field;
  label: string;
  type?: string;
  autoComplete?: string;
  defaultValue: string;
  error?: string;
  multiline?: boolean;
  minLength?: number;
  hint?: string;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  const cls = `block w-full rounded-md border bg-white px-3 text-base text-slate-900 placeholder:text-slate-400 focus:outline-none focus:ring-2 ${
    error ? 'border-red-600 focus:ring-red-200' : 'border-slate-300 focus:border-slate-900 focus:ring-slate-200'
  }`;
  const common = {
    id,
    name,
    required: true,
    maxLength: LIMITS[name],
    minLength,
    defaultValue,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
  } as const;
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-semibold text-slate-900">
        {label}
      </label>
      {multiline ? (
        <textarea {...common} rows={6} className={`${cls} py-2.5`} data-testid={`contact-${name}`} />
      ) : (
        <input
          {...common}
          type={type}
          autoComplete={autoComplete}
          className={`${cls} h-12`}
          data-testid={`contact-${name}`}
        />
      )}
      {hint && !error && (
        <p id={hintId} className="mt-1.5 text-sm text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1.5 text-sm font-medium text-red-700" data-testid={`error-${name}`}>
          {error}
        </p>
      )}
    </div>
  );
}

function ContactDetail({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <li className="flex gap-4">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-xlight text-brand">
        {icon}
      </span>
      <div className="min-w-0">
        <p className="text-sm font-semibold text-slate-900">{label}</p>
        <div className="mt-0.5 text-sm break-words text-slate-600">{children}</div>
      </div>
    </li>
  );
}

const SENT_MESSAGE = 'Your message has been sent.';

export default function ContactPage({ actionData }: Route.ComponentProps) {
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const navigation = useNavigation();
  const sent = actionData?.result.ok ? actionData.values : null;
  const failure = actionData && !actionData.result.ok ? actionData.result : null;
  const values = actionData?.values ?? { name: '', email: '', message: '' };
  const sending = navigation.state === 'submitting' && navigation.formAction === '/contact';

  const formRef = useRef<HTMLFormElement>(null);

  useToastOnArrival('success', sent ? SENT_MESSAGE : null, sent);

  // After a rejected send, the shopper lands on the first field to fix (the error is its description).
  useEffect(() => {
    if (failure) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [failure]);

  const store = root?.shell.store;
  if (!store) return null;
  const company = store.companyName || store.storeName;
  const a = store.companyAddress;
  const address = [a.address1, a.address2, [a.city, a.postalCode].filter(Boolean).join(' '), a.countryGeoId]
    .filter((p) => p && String(p).trim())
    .join(', ');
  const c = store.companyContact;
  const phone = c.contactNumber
    ? [c.countryCode, c.areaCode && `(${c.areaCode})`, c.contactNumber].filter(Boolean).join(' ')
    : '';
  const email = store.emailAddress || EMAIL_PLACEHOLDER;
  const fieldErrors = failure?.fieldErrors ?? {};
  const formError = failure && Object.keys(fieldErrors).length === 0 ? failure.message : null;

  return (
    <PageContainer>
      <PageTitle lead="Questions about an order or a product? Send us a message and we will reply by email.">
        Contact us
      </PageTitle>
      <div className="grid items-start gap-10 lg:grid-cols-[minmax(0,1.6fr)_minmax(0,1fr)] lg:gap-16">
        <section aria-labelledby="contact-form-heading">
          {sent ? (
            <div
              className="flex flex-col items-start rounded-2xl border border-emerald-200 bg-emerald-50 p-8"
              role="status"
              data-testid="contact-sent"
            >
              <CircleCheck aria-hidden className="size-8 text-emerald-700" />
              <h2 id="contact-form-heading" className="mt-4 text-xl font-semibold text-slate-900">
                Message sent
              </h2>
              <p className="mt-2 text-slate-700">
                Thanks, {sent.name}. We'll reply to {sent.email} soon.
              </p>
              <Link to="/" className="mt-6 text-sm font-semibold text-brand underline underline-offset-2">
                Continue shopping
              </Link>
            </div>
          ) : (
            <>
              <h2 id="contact-form-heading" className="text-lg font-semibold text-slate-900">
                Send us a message
              </h2>
              <PostForm ref={formRef} className="mt-6 space-y-5" data-testid="contact-form">
                {formError && (
                  <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
                    {formError}
                  </p>
                )}
                {failure && !formError && (
                  <p role="alert" className="sr-only">
                    {failure.message}
                  </p>
                )}
                <div className="grid gap-5 sm:grid-cols-2">
                  <TextField
                    name="name"
                    label="Name"
                    autoComplete="name"
                    defaultValue={values.name}
                    error={fieldErrors.name}
                  />
                  <TextField
                    name="email"
                    label="Email"
                    type="email"
                    autoComplete="email"
                    defaultValue={values.email}
                    error={fieldErrors.email}
                  />
                </div>
                <TextField
                  name="message"
                  label="Message"
                  multiline
                  minLength={10}
                  defaultValue={values.message}
                  error={fieldErrors.message}
                  hint="At least 10 characters. Include your order number if it is about an order."
                />
                <button
                  type="submit"
                  disabled={sending}
                  className="inline-flex h-12 items-center justify-center rounded-md bg-action px-8 text-base font-semibold text-white hover:opacity-90 disabled:opacity-60"
                >
                  {sending ? 'Sending…' : 'Send message'}
                </button>
              </PostForm>
            </>
          )}
        </section>
        <section aria-labelledby="contact-details-heading" className="rounded-2xl bg-slate-50 p-6 md:p-8">
          <h2 id="contact-details-heading" className="text-lg font-semibold text-slate-900">
            {company}
          </h2>
          <ul className="mt-6 space-y-6" data-testid="contact-details">
            <ContactDetail icon={<MapPin aria-hidden className="size-5" />} label="Address">
              {address || ADDRESS_PLACEHOLDER}
            </ContactDetail>
            <ContactDetail icon={<Phone aria-hidden className="size-5" />} label="Phone">
              {phone ? (
                <a href={`tel:${phone.replace(/[^\d+]/g, '')}`} className="hover:underline">
                  {phone}
                </a>
              ) : (
                PHONE_PLACEHOLDER
              )}
            </ContactDetail>
            <ContactDetail icon={<Mail aria-hidden className="size-5" />} label="Email">
              {store.emailAddress ? (
                <a href={`mailto:${store.emailAddress}`} className="hover:underline">
                  {email}
                </a>
              ) : (
                email
              )}
            </ContactDetail>
          </ul>
          <p className="mt-8 text-sm text-slate-600">
            Looking for a quick answer? Read our{' '}
            <Link to="/faqs" className="font-semibold text-brand underline underline-offset-2">
              Help &amp; FAQs
            </Link>
            .
          </p>
        </section>
      </div>
    </PageContainer>
  );
}
