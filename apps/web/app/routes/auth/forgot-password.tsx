import { Form, Link } from 'react-router';
import { AuthCard, Field, submitClass } from './auth-card';

export default function ForgotPassword() {
  return (
    <AuthCard
      title="Reset your password"
      lead="Enter the email you shop with. We will send you a link to choose a new password."
      footer={
        <Link to="/auth/login" className="font-semibold text-brand hover:underline">
          Back to log in
        </Link>
      }
    >
      <Form method="get" className="space-y-4">
        <Field label="Email" name="email" type="email" autoComplete="email" />
        <button type="submit" className={submitClass}>
          Send reset link
        </button>
      </Form>
    </AuthCard>
  );
}
