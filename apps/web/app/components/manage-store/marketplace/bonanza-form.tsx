import type { BonanzaConnection, BonanzaField, BonanzaFormValues } from '@app/contracts';
import { LoaderCircle } from 'lucide-react';
import { useNavigation } from 'react-router';
import { PostForm } from '../../ui/post-form';
import { primaryAction, secondaryAction } from '../dashboard-layout';

const input =
  'h-9 w-full rounded-lg border border-neutral-300 px-3 text-sm focus:outline-none focus:ring-2 focus:ring-neutral-900/20 aria-[invalid=true]:border-red-600';

function Field({
  name,
  label,
  value,
  error,
  hint,
  type = 'text',
  required,
  autoComplete,
  maxLength,
  placeholder,
}: {
  name: BonanzaField;
  label: string;
  value?: string;
  error?: string;
  hint?: string;
  type?: 'text' | 'email' | 'password';
  required: boolean;
  autoComplete?: string;
  maxLength: number;
  placeholder?: string;
}) {
  const id = `bonanza-${name}`;
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-neutral-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={value}
        required={required}
        autoComplete={autoComplete}
        maxLength={maxLength}
        placeholder={placeholder}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={input}
      />
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-neutral-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700" data-testid={`error-${name}`}>
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The Bonanza account's email, the booth name and the token Bonanza gave. A plain form: without
 * JavaScript it posts and comes back with the errors next to the fields and the typed values kept
 * (all but the token, which is never sent back to the browser). A stored token shows as a mask.
 */
export function BonanzaForm({
  connection,
  values,
  errors,
  message,
  primary,
}: {
  connection: BonanzaConnection | null;
  values: BonanzaFormValues | null;
  errors: Partial<Record<BonanzaField, string>>;
  message: string | null;
  /** The page's primary action when not connected; a secondary save when editing a connection. */
  primary: boolean;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'connect';
  const connected = connection?.status === 'connected';
  const keepsToken = connected && connection.tokenSet;
  return (
    <PostForm className="space-y-4" aria-label={connected ? 'Bonanza connection' : 'Connect to Bonanza'} noValidate>
      <input type="hidden" name="intent" value="connect" />
      {message && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {message}
        </p>
      )}
      <Field
        name="accountEmail"
        label="Bonanza account email"
        type="email"
        autoComplete="email"
        required
        maxLength={254}
        value={values?.accountEmail ?? connection?.accountEmail ?? ''}
        error={errors.accountEmail}
      />
      <Field
        name="boothName"
        label="Booth name"
        required
        maxLength={60}
        value={values?.boothName ?? connection?.boothName ?? ''}
        error={errors.boothName}
        hint="As it is on Bonanza: 3 to 60 letters, digits, spaces, dots, dashes, underscores or apostrophes."
      />
      <Field
        name="token"
        label="Bonanza API token"
        type="password"
        autoComplete="off"
        required={!keepsToken}
        maxLength={256}
        placeholder={keepsToken ? (connection.tokenMask ?? '') : undefined}
        error={errors.token}
        hint={
          keepsToken
            ? 'Stored. Leave empty to keep it.'
            : 'From your booth’s settings on Bonanza (API access). It is stored encrypted and never shown again.'
        }
      />
      <button type="submit" className={primary ? primaryAction : secondaryAction} disabled={saving}>
        {saving && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
        {saving ? 'Saving…' : connected ? 'Save connection' : 'Connect to Bonanza'}
      </button>
    </PostForm>
  );
}
