/**
 * A labelled select (a Field: hint, error that clears when another option is picked).
 *
 *   <SelectField label="Status" name="status" defaultValue="DRAFT"
 *     options={[{ value: 'DRAFT', label: 'Draft' }, { value: 'ACTIVE', label: 'Active' }]} />
 *
 * An option with a `group` is listed under that heading, with its neighbours of the same group.
 */
import { Fragment, type ReactNode, type SelectHTMLAttributes } from 'react';
import { Field } from './field';

export interface SelectOption {
  value: string;
  label: string;
  /** A prompt that cannot be chosen ("Choose a place…", with `required` and `defaultValue=""`). */
  disabled?: boolean;
  /** Options next to each other with the same group are listed under it (an <optgroup>). */
  group?: string;
}

/** The options in order, runs of the same group gathered. */
function grouped(options: readonly SelectOption[]) {
  const runs: { group: string | undefined; options: SelectOption[] }[] = [];
  for (const o of options) {
    const last = runs[runs.length - 1];
    if (last && last.group === o.group) last.options.push(o);
    else runs.push({ group: o.group, options: [o] });
  }
  return runs;
}

const optionsOf = (options: readonly SelectOption[]) =>
  options.map((o) => (
    <option key={o.value} value={o.value} disabled={o.disabled}>
      {o.label}
    </option>
  ));

export function SelectField({
  label,
  name,
  id = name,
  options,
  hint,
  error,
  labelHidden,
  className,
  ...select
}: {
  label: ReactNode;
  name: string;
  id?: string;
  options: readonly SelectOption[];
  hint?: ReactNode;
  error?: string | null | undefined;
  labelHidden?: boolean;
  className?: string;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name' | 'id' | 'className'>) {
  return (
    <Field
      id={id}
      testId={`error-${name}`}
      label={label}
      hint={hint}
      error={error}
      labelHidden={labelHidden}
      className={className}
    >
      {(a11y) => (
        <select id={id} name={name} {...select} {...a11y} className="kit-select">
          {grouped(options).map((run, i) =>
            run.group ? (
              <optgroup key={`${run.group}-${i}`} label={run.group}>
                {optionsOf(run.options)}
              </optgroup>
            ) : (
              <Fragment key={`options-${i}`}>{optionsOf(run.options)}</Fragment>
            ),
          )}
        </select>
      )}
    </Field>
  );
}
