import type { CategoryDetail, CategoryFormField, MediaItem } from '@app/contracts';
import { Link, useNavigation } from 'react-router';
import { PostForm } from '../ui/post-form';
import { Card, primaryAction, secondaryAction } from './dashboard-layout';
import { MediaField } from './media-field';

const input =
  'w-full rounded-lg border border-neutral-300 px-3 text-sm focus:outline-none focus:ring-2 focus:ring-neutral-900/20 aria-[invalid=true]:border-red-600';

function Field({
  name,
  label,
  value,
  error,
  hint,
  required = false,
  multiline = false,
  maxLength,
}: {
  name: CategoryFormField;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  required?: boolean;
  multiline?: boolean;
  maxLength?: number;
}) {
  const id = `category-${name}`;
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name,
    defaultValue: value,
    required,
    maxLength,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
  };
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-neutral-800">
        {label}
        {!required && <span className="ml-1 font-normal text-neutral-500">(optional)</span>}
      </label>
      {multiline ? (
        <textarea {...common} rows={3} className={`${input} py-2`} />
      ) : (
        <input {...common} type="text" className={`${input} h-9`} />
      )}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-neutral-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700" data-testid={`error-${name}`}>
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * A category's own fields: name, description, picture (uploaded or an http address), SEO. A plain
 * multipart form: without JavaScript the picture is posted with it.
 */
export function CategoryForm({
  category,
  places,
  place,
  library,
  values,
  errors,
  message,
}: {
  category: CategoryDetail | null;
  /** For a new category: where it can go. */
  places: { value: string; label: string }[];
  place: string;
  library: MediaItem[];
  values: Record<string, string> | null;
  errors: Partial<Record<CategoryFormField, string>>;
  message: string | null;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const v = (f: CategoryFormField, fallback: string | null | undefined) => values?.[f] ?? fallback ?? '';
  const title = category ? 'Category details' : 'New category';
  const image = category?.linkTwoImageUrl ?? null;
  return (
    <Card title={title}>
      <PostForm encType="multipart/form-data" className="space-y-4" aria-label={title}>
        <input type="hidden" name="intent" value="save" />
        {message && (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {message}
          </p>
        )}
        <Field
          name="categoryName"
          label="Name"
          required
          maxLength={100}
          value={v('categoryName', category?.categoryName)}
          error={errors.categoryName}
        />
        <Field
          name="description"
          label="Description"
          multiline
          maxLength={255}
          value={v('description', category?.description)}
          error={errors.description}
          hint="A line about the category; the footer shows it as the link's text."
        />
        {!category && (
          <div>
            <label htmlFor="category-place" className="mb-1 block text-sm font-medium text-neutral-800">
              Where
            </label>
            <select
              id="category-place"
              name="place"
              defaultValue={values?.place ?? place}
              className="h-9 w-full rounded-lg border border-neutral-300 bg-white px-2 text-sm"
            >
              <option value="">Not in a catalog yet</option>
              {places.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          </div>
        )}
        <MediaField
          name="mediaId"
          label="Picture"
          current={image ? { mediaId: category?.imageMediaId ?? null, url: image } : null}
          library={library}
          error={errors.mediaId}
          hint="Square pictures work best; shown in the category bar's menu."
        />
        <Field
          name="linkTwoImageUrl"
          label="Or a picture's address"
          maxLength={1000}
          value={v('linkTwoImageUrl', image?.startsWith('http') ? image : '')}
          error={errors.linkTwoImageUrl}
          hint="An https:// address of a picture hosted elsewhere. An uploaded picture wins."
        />
        {image && (
          <label className="flex items-center gap-2 text-sm text-neutral-800">
            <input type="checkbox" name="removeImage" className="size-4" />
            Remove the picture
          </label>
        )}
        <fieldset className="space-y-4 border-t border-neutral-100 pt-4">
          <legend className="text-sm font-semibold text-neutral-900">Search engine listing</legend>
          <Field
            name="seoTitle"
            label="Page title"
            maxLength={120}
            value={v('seoTitle', category?.seoTitle)}
            error={errors.seoTitle}
            hint="The category's name if empty; about 60 characters show."
          />
          <Field
            name="seoDescription"
            label="Meta description"
            multiline
            maxLength={320}
            value={v('seoDescription', category?.seoDescription)}
            error={errors.seoDescription}
          />
        </fieldset>
        <div className="flex flex-wrap justify-end gap-2 border-t border-neutral-100 pt-4">
          <Link to="/manage-store/categories" className={secondaryAction}>
            Cancel
          </Link>
          <button type="submit" className={primaryAction} disabled={saving}>
            {saving ? 'Saving…' : category ? 'Save category' : 'Create category'}
          </button>
        </div>
      </PostForm>
    </Card>
  );
}
