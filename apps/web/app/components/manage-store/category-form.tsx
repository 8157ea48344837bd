import type { CategoryDetail, CategoryFormField, MediaItem } from '@app/contracts';
import { useNavigation } from 'react-router';
import { Banner } from '../ui/banner';
import { Card } from '../ui/card';
import { Checkbox } from '../ui/checkbox';
import { PostForm } from '../ui/post-form';
import { SaveBar } from '../ui/save-bar';
import { SelectField } from '../ui/select-field';
import { TextAreaField, TextField } from '../ui/text-field';
import { MediaField } from './media-field';

/** Ids keep the `category-` prefix the page always had: labels and error ids stay the same. */
const idOf = (name: CategoryFormField) => `category-${name}`;
const optional = <span className="font-normal text-neutral-500"> (optional)</span>;

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
    <PostForm encType="multipart/form-data" className="kit-stack" aria-label={title}>
      <input type="hidden" name="intent" value="save" />
      {/* First in the form: Enter in any box saves, and Save stays in reach while the form scrolls. */}
      <SaveBar
        busy={saving}
        saveLabel={category ? 'Save category' : 'Create category'}
        discard="/manage-store/categories"
        message={message ? 'Not saved: see the fields marked' : undefined}
      />
      {message && <Banner>{message}</Banner>}
      <Card title={title}>
        <div className="space-y-4">
          <TextField
            id={idOf('categoryName')}
            name="categoryName"
            label="Name"
            required
            maxLength={100}
            defaultValue={v('categoryName', category?.categoryName)}
            error={errors.categoryName}
          />
          <TextAreaField
            id={idOf('description')}
            name="description"
            label={<>Description{optional}</>}
            maxLength={255}
            defaultValue={v('description', category?.description)}
            error={errors.description}
            hint="A line about the category; the footer shows it as the link's text."
          />
          {!category && (
            <SelectField
              id="category-place"
              name="place"
              label="Where"
              defaultValue={values?.place ?? place}
              options={[{ value: '', label: 'Not in a catalog yet' }, ...places]}
            />
          )}
          <MediaField
            name="mediaId"
            label="Picture"
            current={image ? { mediaId: category?.imageMediaId ?? null, url: image } : null}
            library={library}
            error={errors.mediaId}
            hint="Square pictures work best; shown in the category bar's menu."
          />
          <TextField
            id={idOf('linkTwoImageUrl')}
            name="linkTwoImageUrl"
            label={<>Or a picture's address{optional}</>}
            maxLength={1000}
            defaultValue={v('linkTwoImageUrl', image?.startsWith('http') ? image : '')}
            error={errors.linkTwoImageUrl}
            hint="An https:// address of a picture hosted elsewhere. An uploaded picture wins."
          />
          {image && <Checkbox name="removeImage" label="Remove the picture" />}
        </div>
      </Card>
      <Card title="Search engine listing">
        <div className="space-y-4">
          <TextField
            id={idOf('seoTitle')}
            name="seoTitle"
            label={<>Page title{optional}</>}
            maxLength={120}
            defaultValue={v('seoTitle', category?.seoTitle)}
            error={errors.seoTitle}
            hint="The category's name if empty; about 60 characters show."
          />
          <TextAreaField
            id={idOf('seoDescription')}
            name="seoDescription"
            label={<>Meta description{optional}</>}
            maxLength={320}
            defaultValue={v('seoDescription', category?.seoDescription)}
            error={errors.seoDescription}
          />
        </div>
      </Card>
    </PostForm>
  );
}
