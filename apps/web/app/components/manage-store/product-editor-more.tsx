import type { ProductEditorView } from '@app/contracts';
import { Copy, FileText, Trash2 } from 'lucide-react';
import type { ProductEditorAnswer } from '../../lib/product-editor-action.server';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { Field } from '../ui/field';
import { PostForm } from '../ui/post-form';
import { TextField } from '../ui/text-field';
import type { Errors } from './product-editor-form';

/** Downloads: the product's files (Remove posts the editor's form) and one more to add with the save. */
export function DownloadsCard({ product, errors }: { product: ProductEditorView; errors: Errors }) {
  return (
    <Card title="Downloads">
      {product.contents.length > 0 && (
        <ul className="mb-3 divide-y divide-neutral-100 rounded-lg border border-neutral-200">
          {product.contents.map((c) => (
            <li key={c.contentId} className="flex items-center gap-2 px-3 py-2 text-sm">
              <FileText aria-hidden className="size-4 text-neutral-500" />
              <a href={c.url} className="min-w-0 flex-1 truncate underline">
                {c.title}
              </a>
              <span className="hidden text-xs text-neutral-500 sm:inline">{c.fileName}</span>
              <Button type="submit" slim name="intent" value={`remove-content:${c.contentId}`}>
                Remove<span className="sr-only"> {c.title}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Download title" name="contentTitle" placeholder="Spec sheet" />
        <Field id="contentFile" label="File (PDF or ZIP)" error={errors.contentFile}>
          {(a11y) => (
            <input
              id="contentFile"
              name="contentFile"
              type="file"
              accept=".pdf,.zip,application/pdf,application/zip"
              {...a11y}
              className="max-w-full text-sm"
            />
          )}
        </Field>
      </div>
    </Card>
  );
}

/** Duplicate and delete: forms of their own, below the editor. Delete asks first (ConfirmDialog). */
export function MoreActions({
  product,
  answer,
  busy,
}: {
  product: ProductEditorView;
  answer: ProductEditorAnswer | undefined;
  busy: string;
}) {
  const dup = answer?.kind === 'duplicate' && !answer.result.ok ? answer.result : null;
  const archive = product.hasOrders;
  return (
    <Card title="More actions">
      <div className="space-y-4">
        <PostForm className="flex flex-wrap items-start gap-2" aria-label="Duplicate product">
          <input type="hidden" name="intent" value="duplicate" />
          <TextField
            className="min-w-0 flex-1 basis-48"
            label="SKU of the copy"
            name="copySku"
            placeholder={`${product.sku}-COPY`}
            error={dup ? (dup.fieldErrors.sku ?? dup.message) : undefined}
            hint="Empty: this SKU with -COPY. The copy is a draft."
          />
          <Button type="submit" disabled={busy !== ''} className="sm:mt-[1.625rem]">
            <Copy aria-hidden className="size-4" />
            {busy === 'duplicate' ? 'Duplicating…' : 'Duplicate'}
          </Button>
        </PostForm>
        <div className="space-y-2 border-t border-neutral-100 pt-4 text-sm">
          <p className="text-neutral-600">
            {archive
              ? 'Orders include this product, so it cannot be deleted: it can be archived instead.'
              : 'Deletes the product. Products with orders are archived instead.'}
          </p>
          <ConfirmDialog
            trigger={
              <>
                <Trash2 aria-hidden className="size-4" />
                {archive ? 'Archive…' : 'Delete…'}
              </>
            }
            title={archive ? `Archive “${product.productName}”?` : `Delete “${product.productName}” for good?`}
            confirm={
              <PostForm aria-label="Delete product">
                <input type="hidden" name="intent" value="delete" />
                <Button type="submit" variant="critical" disabled={busy !== ''}>
                  <Trash2 aria-hidden className="size-4" />
                  {archive ? 'Archive product' : 'Delete product'}
                </Button>
              </PostForm>
            }
          >
            {archive
              ? 'Orders include this product, so it cannot be deleted: it is archived instead, and shoppers no longer see it.'
              : 'The product, its options, features and downloads go; its pictures stay in your library.'}
          </ConfirmDialog>
        </div>
      </div>
    </Card>
  );
}
