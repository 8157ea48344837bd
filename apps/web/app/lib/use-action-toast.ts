import { useToastOnArrival } from '../components/ui/toast';

/**
 * Says a saved form's message as a success toast, once per answer: keyed on the answer object, so
 * saving twice in a row with the same message says it twice. On the server (a plain form post
 * without JavaScript) the message is rendered in the notifications region instead.
 */
export function useActionToast(result: { ok: boolean; message: string } | null | undefined) {
  useToastOnArrival('success', result?.ok ? result.message : null, result);
}
