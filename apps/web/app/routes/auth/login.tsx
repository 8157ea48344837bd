import { Form, Link, useSearchParams } from 'react-router';
import { safeRedirect } from '../../lib/safe-redirect';
import { AuthCard, Field, submitClass } from './auth-card';

export default function Login() {
  const [params] = useSearchParams();
  const redirectUrl = safeRedirect(params.get('redirectUrl'));
  return (
    <AuthCard
      title="Log in"
      lead="Welcome back. Log in to see your orders, addresses and wishlist."
      footer={
        <>
          New here?{' '}
          <Link
            to={`/auth/register${params.get('redirectUrl') ? `?redirectUrl=${encodeURIComponent(redirectUrl)}` : ''}`}
            className="font-semibold text-brand hover:underline"
          >
            Create an account
          </Link>
        </>
      }
    >
      <Form method="post" className="space-y-4">
        <input type="hidden" name="redirectUrl" value={redirectUrl} />
        <Field label="Email" name="email" type="email" autoComplete="email" />
        <Field label="Password" name="password" type="password" autoComplete="current-password" />
        <div className="flex justify-end">
          <Link to="/auth/forgot-password" className="text-sm font-medium text-brand hover:underline">
            Forgot your password?
          </Link>
        </div>
        <button type="submit" className={submitClass}>
          Log in
        </button>
      </Form>
    </AuthCard>
  );
}
