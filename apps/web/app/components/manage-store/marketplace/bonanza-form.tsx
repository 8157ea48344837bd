import type { BonanzaConnection, BonanzaField, BonanzaFormValues } from '@app/contracts';
import { LoaderCircle } from 'lucide-react';
import { useNavigation } from 'react-router';
import { Banner } from '../../ui/banner';
import { Button } from '../../ui/button';
import { PostForm } from '../../ui/post-form';
import { TextField } from '../../ui/text-field';

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
      {message && <Banner>{message}</Banner>}
      <TextField
        id="f-accountEmail"
        name="accountEmail"
        label="Bonanza account email"
        type="email"
        autoComplete="email"
        required
        maxLength={254}
        defaultValue={values?.accountEmail ?? connection?.accountEmail ?? ''}
        error={errors.accountEmail}
      />
      <TextField
        id="f-boothName"
        name="boothName"
        label="Booth name"
        required
        maxLength={60}
        defaultValue={values?.boothName ?? connection?.boothName ?? ''}
        error={errors.boothName}
        hint="As it is on Bonanza: 3 to 60 letters, digits, spaces, dots, dashes, underscores or apostrophes."
      />
      <TextField
        id="f-token"
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
      <Button type="submit" variant={primary ? 'primary' : 'secondary'} disabled={saving}>
        {saving && <LoaderCircle aria-hidden className="size-4 animate-spin" />}
        {saving ? 'Saving…' : connected ? 'Save connection' : 'Connect to Bonanza'}
      </Button>
    </PostForm>
  );
}
