import type { OperatorCreateStoreField } from '@app/contracts';
import { normaliseSubdomain, SUBDOMAIN_MESSAGES, subdomainProblem, suggestSubdomain } from '@app/contracts/client';
import { useState } from 'react';
import { data, redirect, useNavigation } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ChoiceList } from '../../../components/ui/choice-list';
import { AdminPage } from '../../../components/ui/page-header';
import { PostForm } from '../../../components/ui/post-form';
import { TextAreaField, TextField } from '../../../components/ui/text-field';
import { consoleMeta, consoleRead, formText, platformApi } from '../../../lib/console-page';
import type { Route } from './+types/_console.stores.new';

const FIELDS = [
  'storeName',
  'subdomain',
  'ownerEmail',
  'ownerFirstName',
  'template',
  'content',
  'reason',
] as const satisfies readonly OperatorCreateStoreField[];

export async function loader({ context, request }: Route.LoaderArgs) {
  // The console's layout has checked the session; the page shows what a store's host ends in.
  return consoleRead(request, async () => ({ hostSuffix: (await platformApi(context).signupPage()).hostSuffix }));
}

/** Opens the store (the sign-up's own provisioning) and mails the owner an invitation. */
export async function action({ context, request }: Route.ActionArgs) {
  return consoleRead(request, async () => {
    const form = await request.formData();
    const values = formText(form, FIELDS) as Record<OperatorCreateStoreField, string>;
    const result = await platformApi(context).consoleCreateStore(values);
    if (result.ok) {
      throw redirect(`/operator/stores/${encodeURIComponent(result.tenantId)}?created=1`);
    }
    return data({ result, values }, { status: result.status });
  });
}

export function meta() {
  return consoleMeta('Create store');
}

/** A store for a merchant who asked the platform: same checks as the sign-up; the owner sets a password by mail. */
export default function CreateStorePage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const values: Partial<Record<OperatorCreateStoreField, string>> = actionData?.values ?? {};
  const errors: Partial<Record<string, string>> = actionData?.result.fieldErrors ?? {};
  // The subdomain follows the store's name until it is typed into.
  const [name, setName] = useState(values.storeName ?? '');
  const [subdomain, setSubdomain] = useState<string | null>(values.subdomain ?? null);
  const shown = subdomain ?? suggestSubdomain(name);
  return (
    <AdminPage
      title="Create store"
      description="Open a store for a merchant. They get an email to choose their password."
    >
      <PostForm className="kit-stack" aria-label="Create store">
        {actionData && Object.keys(errors).length === 0 && <Banner>{actionData.result.message}</Banner>}
        <Card title="Store">
          <div className="space-y-4">
            <TextField
              label="Store name"
              name="storeName"
              required
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={errors.storeName}
            />
            <TextField
              label="Subdomain"
              name="subdomain"
              required
              maxLength={40}
              autoCapitalize="none"
              spellCheck={false}
              value={shown}
              onChange={(e) => setSubdomain(e.target.value)}
              suffix={loaderData.hostSuffix}
              error={errors.subdomain}
              check={(v) => {
                const problem = subdomainProblem(normaliseSubdomain(v));
                return problem ? SUBDOMAIN_MESSAGES[problem] : null;
              }}
              hint="Lower-case letters, digits and single hyphens. Whether it is taken is checked when you create the store."
            />
            <ChoiceList
              title="Template"
              name="template"
              defaultValue={values.template || 'DEFAULT'}
              choices={[
                { value: 'DEFAULT', label: 'Default' },
                { value: 'ONE', label: 'One' },
              ]}
            />
            <ChoiceList
              title="Starting content"
              name="content"
              defaultValue={values.content || 'empty'}
              choices={[
                { value: 'empty', label: 'Empty' },
                { value: 'demo', label: 'A small demo catalog' },
              ]}
            />
          </div>
        </Card>
        <Card title="Owner">
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Owner’s email"
              name="ownerEmail"
              type="email"
              required
              autoComplete="off"
              defaultValue={values.ownerEmail}
              error={errors.ownerEmail}
            />
            <TextField
              label="Owner’s first name (optional)"
              name="ownerFirstName"
              autoComplete="off"
              maxLength={100}
              defaultValue={values.ownerFirstName}
              error={errors.ownerFirstName}
            />
          </div>
        </Card>
        <Card title="Why">
          <TextAreaField
            label="Reason"
            name="reason"
            rows={2}
            required
            maxLength={1000}
            defaultValue={values.reason}
            error={errors.reason}
            hint="Kept in the store’s history and the platform’s audit log (a ticket number helps)."
          />
        </Card>
        <div className="flex flex-wrap justify-end gap-2">
          <ButtonLink to="/operator">Cancel</ButtonLink>
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create store'}
          </Button>
        </div>
      </PostForm>
    </AdminPage>
  );
}
