/**
 * What the settings editors share beside the kit's fields (components/ui): the id of a field named by
 * its payload path (the name with dots made safe, so `#f-contact-email` is a jump target), and the
 * saved draft's note.
 */
export const fieldId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** A saved draft's message on the page (the toast says it too, with JavaScript), with any warnings. */
export function SavedNote({
  result,
}: {
  result?: { ok: true; message: string; warnings?: { field: string; message: string }[] } | { ok: false } | null;
}) {
  if (!result?.ok) return null;
  return (
    <div
      role="status"
      className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-2 text-sm text-emerald-900"
    >
      <p>{result.message}</p>
      {result.warnings && result.warnings.length > 0 && (
        <ul className="mt-1 list-disc pl-5 text-amber-900">
          {result.warnings.map((w) => (
            <li key={w.field}>{w.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
