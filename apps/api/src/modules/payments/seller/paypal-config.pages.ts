import {
  PAYPAL_CONFIG_ID,
  type PaypalConfigUpdate,
  type PaypalSettingsField,
  type PaypalSettingsFormResult,
  type PaypalSettingsFormValues,
  type PaypalSettingsPages,
  paypalConfigUpdateSchema,
  SELLER_STATUS_LABELS,
} from '@app/contracts';
import { requireAccess } from '../../../lib/access';
import { AppError } from '../../../lib/errors';
import type { PageModule } from '../../../lib/page-request';
import { formFailure } from '../../../lib/page-request';
import { formRefusal } from '../../../lib/result';
import type { PaypalConfigRefusal, PaypalConfigService } from './paypal-config.service';

const FIELDS_MESSAGE = 'Please check the fields marked below.';
const FIELDS: readonly PaypalSettingsField[] = ['enabled', 'environment', 'clientId', 'clientSecret'];

/** The API's field (`ownApp.clientSecret`) as the form's (`clientSecret`). */
function formField(path: readonly PropertyKey[]): PaypalSettingsField | null {
  const last = String(path[path.length - 1] ?? '');
  return (FIELDS as readonly string[]).includes(last) ? (last as PaypalSettingsField) : null;
}

const sentence = (m: string) => {
  const s = m.charAt(0).toUpperCase() + m.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
};

/** The form's fields as an update; field errors when they cannot be one. */
function updateFromForm(
  fields: PaypalSettingsFormValues,
  hasOwnApp: boolean,
): { ok: true; update: PaypalConfigUpdate } | { ok: false; fieldErrors: Partial<Record<PaypalSettingsField, string>> } {
  const clientId = (fields.clientId ?? '').trim();
  const clientSecret = (fields.clientSecret ?? '').trim();
  const errors: Partial<Record<PaypalSettingsField, string>> = {};
  if (!clientId && clientSecret) errors.clientId = 'Enter the client id that goes with this secret.';
  if (!clientId && !clientSecret && hasOwnApp) {
    errors.clientId = 'Enter the client id, or use “Remove own app” to stop using your own app.';
  }
  const input = {
    configId: PAYPAL_CONFIG_ID,
    enabled: fields.enabled === 'on' || fields.enabled === 'true',
    ...(fields.environment ? { environment: fields.environment } : {}),
    ...(clientId ? { ownApp: { clientId, ...(clientSecret ? { clientSecret } : {}) } } : {}),
  };
  const parsed = paypalConfigUpdateSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = formField(issue.path);
      if (field && !errors[field]) errors[field] = sentence(issue.message);
    }
    if (Object.keys(errors).length === 0) errors.environment = 'Choose sandbox or live.';
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, fieldErrors: errors };
  return { ok: true, update: parsed.data };
}

/** A refused save on the form: next to its field (the API's `ownApp.clientSecret` is the form's box), or over it. */
function refused(r: PaypalConfigRefusal): PaypalSettingsFormResult {
  const field = r.field ? formField(r.field.split('.')) : undefined;
  if (!field) return formRefusal(r, FIELDS);
  return {
    ok: false,
    status: r.status === 409 ? 409 : 422,
    message: FIELDS_MESSAGE,
    fieldErrors: { [field]: r.fieldMessage } as Partial<Record<PaypalSettingsField, string>>,
  };
}

/** The PayPal settings page's functions; each checks the payments permission itself. */
export function paypalConfigPages(deps: { paypalConfig: PaypalConfigService }): PageModule<PaypalSettingsPages> {
  const { paypalConfig } = deps;
  return (page) => {
    const { ctx } = page;
    return {
      async paypalSettingsPage() {
        requireAccess(ctx, 'payments');
        const [config, status] = await Promise.all([paypalConfig.get(ctx), paypalConfig.sellerStatus(ctx)]);
        return { config, seller: { status, label: SELLER_STATUS_LABELS[status] } };
      },

      async savePaypalSettings(intent, fields): Promise<PaypalSettingsFormResult> {
        requireAccess(ctx, 'payments');
        try {
          page.assertFormFromStore();
          if (intent === 'remove-app') {
            const removed = await paypalConfig.update(ctx, { configId: PAYPAL_CONFIG_ID, ownApp: null });
            if (!removed.ok) return refused(removed);
            return { ok: true, message: 'Your own PayPal app was removed.', config: removed.value };
          }
          const current = await paypalConfig.get(ctx);
          const parsed = updateFromForm(fields, current.ownApp !== null);
          if (!parsed.ok) return { ok: false, status: 400, message: FIELDS_MESSAGE, fieldErrors: parsed.fieldErrors };
          const saved = await paypalConfig.update(ctx, parsed.update);
          if (!saved.ok) return refused(saved);
          return { ok: true, message: 'PayPal settings saved.', config: saved.value };
        } catch (err) {
          // PayPal could not be reached to check the app: the form says so and keeps what was typed.
          if (err instanceof AppError && err.statusCode === 502) {
            return { ok: false, status: 422, message: err.message, fieldErrors: {}, code: err.code };
          }
          return formFailure(err, FIELDS);
        }
      },
    };
  };
}
