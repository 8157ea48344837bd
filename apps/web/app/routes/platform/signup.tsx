import { SIGNUP_HONEYPOT_FIELD, SUBDOMAIN_MESSAGES, subdomainProblem, suggestSubdomain } from '@app/contracts/client';
import { CircleCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { data, Link, useNavigation } from 'react-router';
import { Field, FormAlert, submitClass } from '../../components/ui/form-field';
import { PostForm } from '../../components/ui/post-form';
import type { Route } from './+types/signup';

const FIELDS = ['storeName', 'subdomain', 'email', 'password', 'template', 'starter', SIGNUP_HONEYPOT_FIELD] as const;

export async function loader({ context }: Route.LoaderArgs) {
  if (!context.platform) throw data({ message: 'Page not found' }, { status: 404 });
  return context.platform.signupPage();
}

export async function action({ request, context }: Route.ActionArgs) {
  if (!context.platform) throw data({ message: 'Page not found' }, { status: 404 });
  const form = await request.formData();
  const input = Object.fromEntries(FIELDS.map((f) => [f, String(form.get(f) ?? '').slice(0, 400)]));
  const result = await context.platform.signup(input);
  // What was typed comes back (never the password) so nothing has to be typed twice.
  const { password: _password, [SIGNUP_HONEYPOT_FIELD]: _bot, ...kept } = input;
  return data({ result, values: kept }, { status: result.ok ? 200 : result.status });
}

export function meta() {
  return [
    { title: 'Open your store' },
    { name: 'description', content: 'Open an online store in a minute: a name, an address, and you are selling.' },
  ];
}

type Check = { state: 'idle' | 'checking' | 'ok' | 'problem'; message: string };

/**
 * The subdomain as it is typed: the rules first (the same ones the server applies, from the
 * contracts), then whether it is taken, asked of the API a moment after typing stops.
 */
function useSubdomainCheck(value: string, hostSuffix: string): Check {
  const [check, setCheck] = useState<Check>({ state: 'idle', message: '' });
  useEffect(() => {
    const subdomain = value.trim().toLowerCase();
    if (!subdomain) {
      setCheck({ state: 'idle', message: '' });
      return;
    }
    const problem = subdomainProblem(subdomain);
    if (problem) {
      setCheck({ state: 'problem', message: SUBDOMAIN_MESSAGES[problem] });
      return;
    }
    setCheck({ state: 'checking', message: `Checking ${subdomain}${hostSuffix}…` });
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const res = await fetch(`/platform-api/signup/subdomains/${encodeURIComponent(subdomain)}`, {
          signal: controller.signal,
          headers: { accept: 'application/json' },
        });
        if (!res.ok) throw new Error(String(res.status));
        const { data: answer } = (await res.json()) as {
          data: { available: boolean; message: string | null; host: string };
        };
        setCheck(
          answer.available
            ? { state: 'ok', message: `${subdomain}${hostSuffix} is available.` }
            : { state: 'problem', message: answer.message ?? SUBDOMAIN_MESSAGES.taken },
        );
      } catch {
        // Offline or refused: the form post checks again, so say nothing rather than guess.
        if (!controller.signal.aborted) setCheck({ state: 'idle', message: '' });
      }
    }, 250);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [value, hostSuffix]);
  return check;
}

export default function Signup({ loaderData, actionData }: Route.ComponentProps) {
  const { hostSuffix } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const result = actionData?.result;
  const failure = result && !result.ok ? result : null;
  const values = actionData?.values;
  const [subdomain, setSubdomain] = useState(values?.subdomain ?? '');
  // The subdomain follows the store name until the merchant types one of their own.
  const ownSubdomain = useRef(Boolean(values?.subdomain));
  const check = useSubdomainCheck(subdomain, hostSuffix);
  // Marks the form once its checks run in the browser (a test waits for it; people never see it).
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const subdomainError = failure?.fieldErrors.subdomain ?? (check.state === 'problem' ? check.message : undefined);

  if (result?.ok) {
    // A new email and one that already owns a store both end here: the mail tells them apart.
    return (
      <section className="mx-auto max-w-lg px-4 py-16" aria-labelledby="sent-title">
        <div className="rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
          <h1 id="sent-title" className="text-2xl font-bold text-slate-900">
            Check your email
          </h1>
          <div role="status" className="mt-4 flex gap-3 text-slate-700" data-testid="signup-sent">
            <CircleCheck aria-hidden className="size-6 shrink-0 text-emerald-700" />
            <p>{result.message}</p>
          </div>
          {/* Where it went, so a typo is seen here rather than after a wait for a mail that never comes. */}
          {values?.email && (
            <p className="mt-4 text-slate-700" data-testid="signup-sent-to">
              We sent it to <strong className="break-all text-slate-900">{values.email}</strong>. It can take a minute;
              look in your spam folder too.
            </p>
          )}
          <p className="mt-6 text-sm">
            <Link to="/signup" reloadDocument className="font-medium text-blue-700 hover:underline">
              Wrong address? Start again
            </Link>
          </p>
        </div>
      </section>
    );
  }

  return (
    <div className="mx-auto grid max-w-5xl grid-cols-1 gap-10 px-4 py-12 md:grid-cols-[minmax(0,1fr)_28rem]">
      <section aria-labelledby="pitch">
        <h1 id="pitch" className="text-3xl font-bold text-slate-900 md:text-4xl">
          Open your online store in a minute
        </h1>
        <p className="mt-4 text-lg text-slate-700">
          Pick a name and an address, and your store is live: a storefront that works on every phone, a dashboard for
          orders, products and payments, and your own subdomain.
        </p>
        <ul className="mt-6 space-y-2 text-slate-700">
          <li>• Two templates to start from, changed at any time</li>
          <li>• Start empty, or with a small demo catalog to try things on</li>
          <li>• A checklist takes you from your first product to going live</li>
        </ul>
      </section>
      <section aria-labelledby="signup-title" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="signup-title" className="text-xl font-bold text-slate-900">
          Create your store
        </h2>
        <PostForm className="mt-4 space-y-4" data-testid="signup-form" data-ready={ready || undefined}>
          <FormAlert message={failure && Object.keys(failure.fieldErrors).length === 0 ? failure.message : null} />
          <div>
            <label htmlFor="storeName" className="mb-1.5 block text-sm font-medium text-slate-800">
              Store name
            </label>
            <input
              id="storeName"
              name="storeName"
              required
              maxLength={60}
              autoComplete="organization"
              defaultValue={values?.storeName}
              aria-invalid={failure?.fieldErrors.storeName ? true : undefined}
              aria-describedby={failure?.fieldErrors.storeName ? 'storeName-error' : undefined}
              onChange={(e) => {
                if (!ownSubdomain.current) setSubdomain(suggestSubdomain(e.currentTarget.value));
              }}
              className="h-11 w-full rounded-md border border-slate-300 px-3 text-[15px] focus:border-brand focus:ring-2 focus:ring-brand-light focus:outline-none"
            />
            {failure?.fieldErrors.storeName && (
              <p id="storeName-error" className="mt-1.5 text-sm font-medium text-red-700">
                {failure.fieldErrors.storeName}
              </p>
            )}
          </div>
          <div>
            <label htmlFor="subdomain" className="mb-1.5 block text-sm font-medium text-slate-800">
              Store address
            </label>
            <div className="flex items-stretch">
              <input
                id="subdomain"
                name="subdomain"
                required
                maxLength={40}
                autoCapitalize="none"
                spellCheck={false}
                value={subdomain}
                onChange={(e) => {
                  ownSubdomain.current = true;
                  setSubdomain(e.currentTarget.value);
                }}
                aria-invalid={subdomainError ? true : undefined}
                aria-describedby="subdomain-status"
                className={`h-11 min-w-0 flex-1 rounded-l-md border px-3 text-[15px] focus:ring-2 focus:outline-none ${
                  subdomainError ? 'border-red-600 focus:ring-red-200' : 'border-slate-300 focus:ring-brand-light'
                }`}
              />
              <span className="flex items-center rounded-r-md border border-l-0 border-slate-300 bg-slate-100 px-3 text-sm text-slate-700">
                {hostSuffix}
              </span>
            </div>
            <p
              id="subdomain-status"
              aria-live="polite"
              data-testid="subdomain-status"
              className={`mt-1.5 min-h-5 text-sm ${
                subdomainError
                  ? 'font-medium text-red-700'
                  : check.state === 'ok'
                    ? 'text-emerald-800'
                    : 'text-slate-600'
              }`}
            >
              {subdomainError ?? (check.message || 'Letters, digits and hyphens.')}
            </p>
          </div>
          <Field
            label="Your email"
            name="email"
            type="email"
            autoComplete="email"
            defaultValue={values?.email}
            error={failure?.fieldErrors.email}
          />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            hint="At least 10 characters. Avoid common passwords and your email address."
            error={failure?.fieldErrors.password}
          />
          <Choice
            legend="Template"
            name="template"
            selected={values?.template || 'DEFAULT'}
            options={[
              { value: 'DEFAULT', label: 'Default', hint: 'Banner, categories and products on the home page' },
              { value: 'ONE', label: 'One', hint: 'A single column, for a small range' },
            ]}
          />
          <Choice
            legend="Starting content"
            name="starter"
            selected={values?.starter || 'empty'}
            options={[
              { value: 'empty', label: 'Empty', hint: 'Add your own products' },
              { value: 'demo', label: 'Demo catalog', hint: 'A few sample products to try things on' },
            ]}
          />
          {/* Off screen and out of the tab order: people never fill it, form-filling bots do. */}
          <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
            <label htmlFor={SIGNUP_HONEYPOT_FIELD}>Website</label>
            <input id={SIGNUP_HONEYPOT_FIELD} name={SIGNUP_HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
          </div>
          <button type="submit" className={submitClass} disabled={busy}>
            {busy ? 'Creating your store…' : 'Create my store'}
          </button>
        </PostForm>
      </section>
    </div>
  );
}

function Choice({
  legend,
  name,
  selected,
  options,
}: {
  legend: string;
  name: string;
  selected: string;
  options: { value: string; label: string; hint: string }[];
}) {
  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium text-slate-800">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((o) => (
          <label
            key={o.value}
            className="flex cursor-pointer gap-2 rounded-md border border-slate-300 p-3 has-[:checked]:border-slate-900 has-[:checked]:bg-slate-50"
          >
            <input type="radio" name={name} value={o.value} defaultChecked={selected === o.value} className="mt-1" />
            <span>
              <span className="block text-sm font-semibold text-slate-900">{o.label}</span>
              <span className="block text-sm text-slate-600">{o.hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
