import { contrastWarnings, parseRgb, rgbToHex, type ThemeColorKey } from '@app/contracts/client';
import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { TextField } from '../ui/text-field';
import { fieldId } from './store-details-fields';

/**
 * One theme colour: a colour picker with its "R, G, B" text beside it (the stored form). With JavaScript each follows the other and the contrast warning follows the colour;
 * without it both are posted and the action takes the one that changed (lib/store-settings-form.ts).
 * A low contrast is a warning, never a refusal.
 */
export function ThemeColorField({
  colorKey,
  label,
  hint,
  value,
  savedValue,
  error,
  onChange,
}: {
  colorKey: ThemeColorKey;
  label: string;
  hint: string;
  /** What the field shows first: what was typed, the draft, or what is live. */
  value: string;
  /** The value the form was drawn with, so the action can tell which of text and picker changed. */
  savedValue: string;
  error?: string;
  onChange?: (value: string) => void;
}) {
  const name = `themeColors.${colorKey}`;
  const id = fieldId(name);
  const [text, setText] = useState(value);
  const rgb = parseRgb(text);
  const hex = rgb ? rgbToHex(rgb) : '#000000';
  const warning = rgb ? contrastWarnings({ [colorKey]: text })[0] : undefined;
  const update = (next: string) => {
    setText(next);
    onChange?.(next);
  };
  return (
    <div className="flex items-start gap-2">
      <TextField
        id={id}
        name={name}
        label={label}
        className="flex-1"
        value={text}
        onChange={(e) => update(e.currentTarget.value)}
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        error={error}
        hint={
          <>
            {hint}
            {!error && warning && (
              <span className="mt-1 flex gap-1.5 text-amber-800" data-testid={`warning-${name}`}>
                <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
                <span>{warning.message}</span>
              </span>
            )}
          </>
        }
      />
      {/* The kit has no colour swatch: the browser's own picker, level with the text box (below its label). */}
      <input
        type="color"
        name={`pick.${name}`}
        aria-label={`${label} colour picker`}
        value={hex}
        onChange={(e) => {
          const picked = e.currentTarget.value;
          const parts = [1, 3, 5].map((i) => Number.parseInt(picked.slice(i, i + 2), 16));
          update(parts.join(', '));
        }}
        className="mt-[1.625rem] h-9 w-12 shrink-0 cursor-pointer rounded-lg border border-neutral-300 bg-white p-1"
      />
      <input type="hidden" name={`was.${name}`} value={savedValue} />
    </div>
  );
}
