import { Form, Link } from 'react-router';
import { AuthCard, Field, submitClass } from './auth-card';

export default function Register() {
  return (
    <AuthCard
      title="Create an account"
      lead="Check out faster, follow your orders and keep a wishlist."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/auth/login" className="font-semibold text-brand hover:underline">
            Log in
          </Link>
        </>
      }
    >
      <Form method="post" className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="First name" name="firstName" autoComplete="given-name" />
          <Field label="Last name" name="lastName" autoComplete="family-name" />
        </div>
        <Field label="Email" name="email" type="email" autoComplete="email" />
        <Field label="Password" name="password" type="password" autoComplete="new-password" />
        <button type="submit" className={submitClass}>
          Create account
        </button>
      </Form>
    </AuthCard>
  );
}
