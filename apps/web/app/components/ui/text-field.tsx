/**
 * Text, number and multi-line inputs, each a Field (label, hint, error that clears when fixed).
 *
 *   <TextField label="Title" name="productName" defaultValue={v} error={errors.productName} />
 *   <NumberField label="Threshold" name="lowStockThreshold" defaultValue="5" />
 *   <TextAreaField label="SEO description" name="seoDescription" rows={3} />
 *
 * `id` defaults to `name`; pass one when a name repeats on the page (a row's input). `prefix` and
 * `suffix` are short texts joined to the box ("/" before a handle, "g" after a weight).
 */
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';
import { Field } from './field';

type Common = {
  label: ReactNode;
  name: string;
  id?: string;
  hint?: ReactNode;
  error?: string | null | undefined;
  labelHidden?: boolean;
  className?: string;
};

export type TextFieldProps = Common &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'id' | 'prefix' | 'className'> & {
    prefix?: ReactNode;
    suffix?: ReactNode;
    check?: (value: string) => string | null;
  };

export function TextField({
  label,
  name,
  id = name,
  hint,
  error,
  labelHidden,
  className,
  prefix,
  suffix,
  check,
  ...input
}: TextFieldProps) {
  return (
    <Field
      id={id}
      testId={`error-${name}`}
      label={label}
      hint={hint}
      error={error}
      labelHidden={labelHidden}
      className={className}
      {...(check ? { check } : {})}
    >
      {(a11y) => {
        const box = (
          <input
            id={id}
            name={name}
            {...input}
            {...a11y}
            className={`kit-input ${input.inputMode === 'numeric' || input.inputMode === 'decimal' ? 'kit-input--number' : ''}`}
          />
        );
        if (!prefix && !suffix) return box;
        return (
          <div className="kit-affix">
            {prefix && (
              <span className="kit-affix__text" aria-hidden>
                {prefix}
              </span>
            )}
            {box}
            {suffix && (
              <span className="kit-affix__text" aria-hidden>
                {suffix}
              </span>
            )}
          </div>
        );
      }}
    </Field>
  );
}

/**
 * A whole number. A text box with a numeric keyboard rather than type="number", whose value the
 * browser may silently drop or change with the scroll wheel; the server says what is wrong.
 */
export function NumberField({ allowSign = false, ...props }: TextFieldProps & { allowSign?: boolean }) {
  return (
    <TextField inputMode="numeric" pattern={allowSign ? '[+\\-]?[0-9]*' : '[0-9]*'} autoComplete="off" {...props} />
  );
}

export function TextAreaField({
  label,
  name,
  id = name,
  hint,
  error,
  labelHidden,
  className,
  rows = 3,
  code = false,
  ...area
}: Common &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'name' | 'id' | 'className'> & {
    /** Markup or code typed in: the text area (not its label or hint) in a monospace font. */
    code?: boolean;
  }) {
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
        <textarea
          id={id}
          name={name}
          rows={rows}
          {...area}
          {...a11y}
          className={code ? 'kit-textarea kit-textarea--code' : 'kit-textarea'}
        />
      )}
    </Field>
  );
}
