import type { ProductEditorForm, ProductEditorPageData } from '@app/contracts';
import { useState } from 'react';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Checkbox } from '../ui/checkbox';
import { FieldError, useFieldError } from '../ui/field';
import { TextAreaField, TextField } from '../ui/text-field';
import { type Errors, list, rowsToShow } from './product-editor-form';

/** The editor's repeated rows (options, features) and the categories list. */

export function OptionsCard({
  values,
  errors,
  currency,
}: {
  values: ProductEditorForm;
  errors: Errors;
  currency: string;
}) {
  const names = list(values, 'optionName');
  const choices = list(values, 'optionChoices');
  // The filled options, then one blank to add; blanks are ignored when saving.
  const [shown, setShown] = useState(() => rowsToShow(names, choices, 1));
  return (
    <Card
      title="Configurable options"
      description={
        <>
          Choices priced on top of what is bought, like an engraving or a shade. One choice per line; a price change
          after it, like <code className="rounded bg-neutral-100 px-1">Glass +12.50</code> ({currency}). A product with
          options is configurable.
        </>
      }
    >
      {errors.options && <FieldError id="options-error" message={errors.options} testId="error-options" />}
      <div className="space-y-3">
        {Array.from({ length: shown }, (_, n) => (
          <fieldset key={n} className="grid gap-3 rounded-lg border border-neutral-200 p-3 sm:grid-cols-3">
            <legend className="sr-only">Option {n + 1}</legend>
            <TextField
              id={`optionName-${n}`}
              name="optionName"
              label="Option name"
              defaultValue={names[n] ?? ''}
              placeholder="Shade"
            />
            <TextAreaField
              className="sm:col-span-2"
              id={`optionChoices-${n}`}
              name="optionChoices"
              label="Choices"
              defaultValue={choices[n] ?? ''}
              placeholder={'Linen\nGlass +12.50'}
            />
          </fieldset>
        ))}
      </div>
      {shown < 10 && (
        <Button className="mt-3" onClick={() => setShown((s) => s + 1)}>
          Add another option
        </Button>
      )}
    </Card>
  );
}

export function FeaturesCard({ values, errors }: { values: ProductEditorForm; errors: Errors }) {
  const labels = list(values, 'featureLabel');
  const vals = list(values, 'featureValue');
  const [shown, setShown] = useState(() => rowsToShow(labels, vals, 2));
  return (
    <Card title="Features" description="Specifications shown on the product page, like Finish: Brass.">
      {errors.features && <FieldError id="features-error" message={errors.features} testId="error-features" />}
      <div className="space-y-2">
        {Array.from({ length: shown }, (_, n) => (
          <div key={n} className="grid grid-cols-2 gap-2">
            <TextField
              id={`featureLabel-${n}`}
              name="featureLabel"
              label={`Feature ${n + 1} label`}
              labelHidden
              placeholder="Label"
              defaultValue={labels[n] ?? ''}
            />
            <TextField
              id={`featureValue-${n}`}
              name="featureValue"
              label={`Feature ${n + 1} value`}
              labelHidden
              placeholder="Value"
              defaultValue={vals[n] ?? ''}
            />
          </div>
        ))}
      </div>
      {shown < 50 && (
        <Button className="mt-3" onClick={() => setShown((s) => s + 1)}>
          Add another feature
        </Button>
      )}
    </Card>
  );
}

export function CategoriesField({
  page,
  values,
  errors,
}: {
  page: ProductEditorPageData;
  values: ProductEditorForm;
  errors: Errors;
}) {
  const chosen = new Set(list(values, 'categoryIds'));
  const [filter, setFilter] = useState('');
  const shown = page.categories.filter((c) => !filter || c.name.toLowerCase().includes(filter.toLowerCase()));
  const { shown: error, watch } = useFieldError(errors.categoryIds);
  return (
    <div {...watch}>
      <fieldset aria-describedby={error ? 'categoryIds-error' : undefined}>
        <legend className="kit-label">Categories</legend>
        {/* A filter of the list below, not a field of the form: it has no name and posts nothing. */}
        <input
          type="search"
          aria-label="Filter categories"
          placeholder="Filter categories"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          className="kit-input mb-2"
        />
        <div className="max-h-48 space-y-1 overflow-y-auto rounded-lg border border-neutral-200 p-2">
          {page.categories.map((c) => (
            <div key={c.productCategoryId} className={shown.includes(c) ? '' : 'hidden'}>
              <Checkbox
                id={`category-${c.productCategoryId}`}
                name="categoryIds"
                value={c.productCategoryId}
                defaultChecked={chosen.has(c.productCategoryId)}
                label={c.name}
              />
            </div>
          ))}
        </div>
        {error && <FieldError id="categoryIds-error" message={error} testId="error-categoryIds" />}
      </fieldset>
    </div>
  );
}
