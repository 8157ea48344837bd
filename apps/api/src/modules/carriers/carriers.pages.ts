import {
  CARRIER_FIELDS,
  type CarrierField,
  type CarrierFormResult,
  type CarrierPages,
  carrierConnectSchema,
  carrierSchema,
  carrierSettingsSchema,
  parseDecimalMoney,
} from '@app/contracts';
import type { Db } from '@app/db';
import { requireAccess } from '../../lib/access';
import { formFailure, type PageModule } from '../../lib/page-request';
import type { Refusal } from '../../lib/result';
import { storeIdentity } from '../store/index';
import type { CarriersService } from './carriers.service';

const FIELDS_MESSAGE = 'Please check the fields marked below.';

const sentence = (m: string) => {
  const s = m.charAt(0).toUpperCase() + m.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
};

/** A form's text as the whole number it is; anything else stays text for the schema to refuse. */
const whole = (v: string | string[] | undefined) => {
  const s = typeof v === 'string' ? v.trim() : '';
  return /^\d{1,7}$/.test(s) ? Number(s) : s;
};

/** The form field an issue's path ends in (box.lengthIn is the form's lengthIn). */
function fieldOf(path: readonly PropertyKey[], kind?: string): CarrierField | null {
  let last = String(path[path.length - 1] ?? '');
  if (last === 'markupValue') last = kind === 'fixed' ? 'markupAmount' : 'markupPercent';
  return (CARRIER_FIELDS as readonly string[]).includes(last) ? (last as CarrierField) : null;
}

function issues(error: { issues: { path: PropertyKey[]; message: string }[] }, kind?: string): CarrierFormResult {
  const fieldErrors: Partial<Record<CarrierField, string>> = {};
  for (const i of error.issues) {
    const f = fieldOf(i.path, kind);
    if (f && !fieldErrors[f]) fieldErrors[f] = sentence(i.message);
  }
  return { ok: false, status: 400, message: FIELDS_MESSAGE, fieldErrors };
}

function refused(r: Refusal, kind?: string): CarrierFormResult {
  const field = r.field ? fieldOf(r.field.split('.'), kind) : null;
  return {
    ok: false,
    status: r.status === 404 || r.status === 409 || r.status === 422 ? r.status : 400,
    message: field ? FIELDS_MESSAGE : r.message,
    fieldErrors: field ? { [field]: r.fieldMessage ?? r.message } : {},
  };
}

/** The Carriers settings page (decision 117); each function checks the settings permission itself. */
export function carrierPages(deps: { carriers: CarriersService; db: Db }): PageModule<CarrierPages> {
  const { carriers } = deps;
  return (page) => {
    const { ctx } = page;
    return {
      async carriersPage() {
        requireAccess(ctx, 'settings');
        const [accounts, store] = await Promise.all([carriers.list(ctx), storeIdentity(deps.db, ctx)]);
        return { accounts, currency: store?.currency ?? 'USD' };
      },

      async saveCarrier(carrierName, intent, fields): Promise<CarrierFormResult> {
        requireAccess(ctx, 'settings');
        const carrier = carrierSchema.safeParse(carrierName);
        if (!carrier.success) return { ok: false, status: 404, message: 'No such carrier.', fieldErrors: {} };
        const c = carrier.data;
        const text = (k: string) => {
          const v = fields[k];
          return typeof v === 'string' ? v : '';
        };
        try {
          page.assertFormFromStore();
          if (intent === 'disconnect') {
            const gone = await carriers.disconnect(ctx, c);
            if (!gone.ok) return refused(gone);
            return { ok: true, message: `${gone.value.name} disconnected.` };
          }
          if (intent === 'connect') {
            const parsed = carrierConnectSchema.safeParse({
              clientId: text('clientId'),
              clientSecret: text('clientSecret'),
              accountNumber: text('accountNumber'),
            });
            if (!parsed.success) return issues(parsed.error);
            const saved = await carriers.connect(ctx, c, parsed.data);
            if (!saved.ok) return refused(saved);
            return { ok: true, message: `${saved.value.name} connected, account ending ${saved.value.accountEnding}.` };
          }
          const services = fields.services;
          const kind = text('markupKind') || 'none';
          // A fixed markup is typed as money ("2.50"), a percent as a whole number.
          let markupValue: unknown;
          if (kind === 'percent') markupValue = whole(fields.markupPercent);
          if (kind === 'fixed') {
            const money = parseDecimalMoney(
              text('markupAmount'),
              (await storeIdentity(deps.db, ctx))?.currency ?? 'USD',
            );
            if (!money.ok) {
              return {
                ok: false,
                status: 400,
                message: FIELDS_MESSAGE,
                fieldErrors: { markupAmount: sentence(money.message) },
              };
            }
            markupValue = money.minor;
          }
          const parsed = carrierSettingsSchema.safeParse({
            services: Array.isArray(services) ? services : services ? [services] : [],
            markupKind: kind,
            ...(markupValue !== undefined ? { markupValue } : {}),
            box: { lengthIn: whole(fields.lengthIn), widthIn: whole(fields.widthIn), heightIn: whole(fields.heightIn) },
          });
          if (!parsed.success) return issues(parsed.error, kind);
          const saved = await carriers.update(ctx, c, parsed.data);
          if (!saved.ok) return refused(saved, kind);
          return { ok: true, message: `${saved.value.name} settings saved.` };
        } catch (err) {
          const failure = formFailure(err, CARRIER_FIELDS);
          return { ...failure, status: failure.status === 429 ? 409 : failure.status };
        }
      },
    };
  };
}
