import { ShieldCheck } from 'lucide-react';
import { data, redirect, useNavigation } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { PostForm } from '../../../components/ui/post-form';
import { TextField } from '../../../components/ui/text-field';
import { consoleMeta, formText, platformApi, safeConsoleNext } from '../../../lib/console-page';
import type { Route } from './+types/sign-in';

/** Already signed in: straight to the console. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const next = safeConsoleNext(url.searchParams.get('next'));
  if (await platformApi(context).consoleOperator()) throw redirect(next);
  return { next, signedOut: url.searchParams.has('signedOut') };
}

/**
 * Two steps, one route: the password (step `password`), then, when the account has a second
 * factor (always in production), the authenticator's code with the challenge the first step
 * answered. Each step's answer renders the next, so both work without JavaScript.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const platform = platformApi(context);
  const next = safeConsoleNext(String(form.get('next') ?? ''));
  const signedIn = (cookies: string[]) => {
    const headers = new Headers();
    for (const c of cookies) headers.append('set-cookie', c);
    return redirect(next, { headers });
  };
  if (form.get('step') === 'totp') {
    const values = formText(form, ['challenge', 'code'], 300);
    const result = await platform.consoleSignInTotp({ challenge: values.challenge ?? '', code: values.code ?? '' });
    if (result.ok) return signedIn(result.cookies);
    // An expired or used challenge cannot take another code: back to the password.
    const restart = result.status === 401 && !result.fieldErrors.code;
    return data(
      {
        step: restart ? ('password' as const) : ('totp' as const),
        challenge: values.challenge ?? '',
        email: '',
        result,
      },
      { status: result.status },
    );
  }
  const values = formText(form, ['email', 'password'], 300);
  const result = await platform.consoleSignIn({ email: values.email ?? '', password: values.password ?? '' });
  if (!result.ok) {
    return data(
      { step: 'password' as const, challenge: '', email: values.email ?? '', result },
      { status: result.status },
    );
  }
  if (result.step === 'signed-in') return signedIn(result.cookies);
  return data({ step: 'totp' as const, challenge: result.challenge, email: values.email ?? '', result: null });
}

export function meta() {
  return consoleMeta('Sign in');
}

export default function OperatorSignIn({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const step = actionData?.step ?? 'password';
  const failure = actionData?.result && !actionData.result.ok ? actionData.result : null;
  const errors: Partial<Record<string, string>> = failure?.fieldErrors ?? {};
  return (
    <div className="bg-[#f1f1f1] px-4 py-10 md:py-16">
      <div className="mx-auto max-w-md">
        <div className="mb-6 flex items-center gap-3">
          <span aria-hidden className="flex size-10 items-center justify-center rounded-lg bg-[#1a1a1a] text-white">
            <ShieldCheck className="size-5" />
          </span>
          <div>
            <h1 className="text-xl font-bold text-[#171717]">Operator console</h1>
            <p className="text-sm text-[#525252]">For the platform’s operators, not for store owners.</p>
          </div>
        </div>
        <Card title={step === 'totp' ? 'Enter your code' : 'Sign in'}>
          {loaderData.signedOut && !actionData && (
            <div className="mb-4">
              <Banner tone="success">You are signed out.</Banner>
            </div>
          )}
          {failure && Object.keys(errors).length === 0 && (
            <div className="mb-4">
              <Banner>{failure.message}</Banner>
            </div>
          )}
          {step === 'totp' ? (
            <PostForm className="space-y-4" key="totp">
              <input type="hidden" name="step" value="totp" />
              <input type="hidden" name="challenge" value={actionData?.challenge ?? ''} />
              <input type="hidden" name="next" value={loaderData.next} />
              <TextField
                label="Authentication code"
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9 ]*"
                maxLength={7}
                required
                autoFocus
                error={errors.code}
                hint="The 6 digits your authenticator app shows for this console."
              />
              <Button type="submit" variant="primary" disabled={busy}>
                {busy ? 'Checking…' : 'Verify and sign in'}
              </Button>
            </PostForm>
          ) : (
            <PostForm className="space-y-4" key="password">
              <input type="hidden" name="step" value="password" />
              <input type="hidden" name="next" value={loaderData.next} />
              <TextField
                label="Email"
                name="email"
                type="email"
                autoComplete="username"
                required
                defaultValue={actionData?.email ?? ''}
                error={errors.email}
              />
              <TextField
                label="Password"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                error={errors.password}
              />
              <Button type="submit" variant="primary" disabled={busy}>
                {busy ? 'Signing in…' : 'Continue'}
              </Button>
            </PostForm>
          )}
        </Card>
      </div>
    </div>
  );
}
