import { useEffect } from 'react';
import { useToast } from '../components/ui/toast';

/**
 * Says a saved form's message as a success toast, once per answer: keyed on the answer object, so
 * saving twice in a row with the same message says it twice.
 */
export function useActionToast(result: { ok: boolean; message: string } | null | undefined) {
  const toast = useToast();
  useEffect(() => {
    if (result?.ok) toast('success', result.message);
  }, [result, toast]);
}
