import { descriptionParagraphs } from '@app/contracts';
import Image from '@tiptap/extension-image';
import { TableKit } from '@tiptap/extension-table';
import { type Editor, EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import {
  Bold,
  Heading2,
  Heading3,
  ImagePlus,
  Italic,
  Link2,
  List,
  ListOrdered,
  Quote,
  Redo2,
  Table,
  Undo2,
} from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useState } from 'react';
import type { CmsRichTextProps } from './cms-rich-text-props';

/** Links an owner may add: web, mail, phone, or a path of this store. */
const LINK = /^(https?:\/\/|mailto:|tel:|\/(?!\/))/i;
/** Images: this store's media, or https (the server applies the same rule). */
const IMAGE = /^(\/media\/(?!.*\.\.)[A-Za-z0-9/_.,=~-]+|https:\/\/[^/\s]+\S*)$/;

/**
 * The Tiptap editor behind CmsRichText (loaded lazily). Its HTML travels in a hidden `content`
 * field, so the form posts exactly as the textarea fallback does.
 */
export default function CmsTiptapEditor({
  name,
  defaultValue,
  chooseFromLibrary,
  errorId,
  paragraphsFromText,
}: CmsRichTextProps & { errorId?: string }) {
  const [html, setHtml] = useState(defaultValue);
  const editor = useEditor({
    immediatelyRender: false,
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto', 'tel'] },
      }),
      Image,
      TableKit.configure({ table: { resizable: false } }),
    ],
    content: paragraphsFromText ? descriptionParagraphs(defaultValue) : defaultValue,
    editorProps: {
      attributes: {
        id: name,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': 'Page content',
        ...(errorId ? { 'aria-describedby': errorId, 'aria-invalid': 'true' } : {}),
        class: 'prose-cms min-h-64 max-w-none px-4 py-3 focus:outline-none',
      },
    },
    onUpdate: ({ editor: e }) => setHtml(e.getHTML()),
  });
  return (
    <div className="rounded-lg border border-neutral-300 bg-white focus-within:ring-2 focus-within:ring-neutral-300">
      <input type="hidden" name={name} value={html} />
      {editor ? <Toolbar editor={editor} chooseFromLibrary={chooseFromLibrary} /> : null}
      <EditorContent editor={editor} />
    </div>
  );
}

function Toolbar({
  editor,
  chooseFromLibrary,
}: {
  editor: Editor;
  chooseFromLibrary?: CmsRichTextProps['chooseFromLibrary'];
}) {
  const [panel, setPanel] = useState<'link' | 'image' | null>(null);
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      link: e.isActive('link'),
      table: e.isActive('table'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();
  return (
    <div className="border-b border-neutral-200">
      <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-0.5 p-1">
        <Tool label="Bold" pressed={state.bold} onClick={() => chain().toggleBold().run()}>
          <Bold className="size-4" />
        </Tool>
        <Tool label="Italic" pressed={state.italic} onClick={() => chain().toggleItalic().run()}>
          <Italic className="size-4" />
        </Tool>
        <Tool label="Heading" pressed={state.h2} onClick={() => chain().toggleHeading({ level: 2 }).run()}>
          <Heading2 className="size-4" />
        </Tool>
        <Tool label="Subheading" pressed={state.h3} onClick={() => chain().toggleHeading({ level: 3 }).run()}>
          <Heading3 className="size-4" />
        </Tool>
        <Tool label="Bulleted list" pressed={state.bullet} onClick={() => chain().toggleBulletList().run()}>
          <List className="size-4" />
        </Tool>
        <Tool label="Numbered list" pressed={state.ordered} onClick={() => chain().toggleOrderedList().run()}>
          <ListOrdered className="size-4" />
        </Tool>
        <Tool label="Quote" pressed={state.quote} onClick={() => chain().toggleBlockquote().run()}>
          <Quote className="size-4" />
        </Tool>
        <Tool
          label="Link"
          pressed={state.link || panel === 'link'}
          onClick={() => setPanel(panel === 'link' ? null : 'link')}
        >
          <Link2 className="size-4" />
        </Tool>
        <Tool label="Image" pressed={panel === 'image'} onClick={() => setPanel(panel === 'image' ? null : 'image')}>
          <ImagePlus className="size-4" />
        </Tool>
        <Tool
          label="Table"
          pressed={state.table}
          onClick={() => chain().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run()}
        >
          <Table className="size-4" />
        </Tool>
        <span aria-hidden className="mx-1 w-px self-stretch bg-neutral-200" />
        <Tool label="Undo" disabled={!state.canUndo} onClick={() => chain().undo().run()}>
          <Undo2 className="size-4" />
        </Tool>
        <Tool label="Redo" disabled={!state.canRedo} onClick={() => chain().redo().run()}>
          <Redo2 className="size-4" />
        </Tool>
      </div>
      {state.table && (
        <div className="flex flex-wrap gap-1 border-t border-neutral-100 px-2 py-1 text-xs">
          <SmallAction onClick={() => chain().addRowAfter().run()}>Add row</SmallAction>
          <SmallAction onClick={() => chain().addColumnAfter().run()}>Add column</SmallAction>
          <SmallAction onClick={() => chain().deleteRow().run()}>Delete row</SmallAction>
          <SmallAction onClick={() => chain().deleteColumn().run()}>Delete column</SmallAction>
          <SmallAction onClick={() => chain().deleteTable().run()}>Delete table</SmallAction>
        </div>
      )}
      {panel === 'link' && (
        <UrlPanel
          label="Link address"
          hint="https://…, mailto:…, or a path of your store such as /page/details/about-us"
          initial={String(editor.getAttributes('link').href ?? '')}
          accept={(v) => LINK.test(v)}
          onApply={(href) => {
            if (href) chain().extendMarkRange('link').setLink({ href }).run();
            else chain().extendMarkRange('link').unsetLink().run();
            setPanel(null);
          }}
          onCancel={() => setPanel(null)}
        />
      )}
      {panel === 'image' && (
        <UrlPanel
          label="Image address"
          hint="An image of your store (/media/…) or an https address."
          initial=""
          accept={(v) => IMAGE.test(v)}
          onApply={(src) => {
            if (src) chain().setImage({ src }).run();
            setPanel(null);
          }}
          onCancel={() => setPanel(null)}
          extra={
            // MEDIA LIBRARY HOOK: shown once a chooser is passed in (see cms-rich-text.tsx).
            chooseFromLibrary ? (
              <SmallAction
                onClick={async () => {
                  const chosen = await chooseFromLibrary();
                  if (chosen) chain().setImage(chosen).run();
                  setPanel(null);
                }}
              >
                Choose from media library
              </SmallAction>
            ) : null
          }
        />
      )}
    </div>
  );
}

function Tool({
  label,
  pressed,
  disabled,
  onClick,
  children,
}: {
  label: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      title={label}
      aria-label={label}
      aria-pressed={pressed === undefined ? undefined : pressed}
      disabled={disabled}
      onClick={onClick}
      className="inline-flex size-8 items-center justify-center rounded-md text-neutral-700 hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-neutral-900 disabled:opacity-40 aria-pressed:bg-neutral-900 aria-pressed:text-white"
    >
      {children}
    </button>
  );
}

function SmallAction({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="rounded-md px-2 py-1 font-medium text-neutral-700 hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-neutral-900"
    >
      {children}
    </button>
  );
}

/** A one-line address field inside the page's form: Enter applies it instead of saving the page. */
function UrlPanel({
  label,
  hint,
  initial,
  accept,
  onApply,
  onCancel,
  extra,
}: {
  label: string;
  hint: string;
  initial: string;
  accept: (value: string) => boolean;
  onApply: (value: string) => void;
  onCancel: () => void;
  extra?: ReactNode;
}) {
  const [value, setValue] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const apply = () => {
    const v = value.trim();
    if (v && !accept(v)) {
      setProblem(hint);
      return;
    }
    onApply(v);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      apply();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      onCancel();
    }
  };
  return (
    <div className="flex flex-wrap items-end gap-2 border-t border-neutral-100 p-2">
      <label className="min-w-0 flex-1 text-xs font-medium text-neutral-700">
        {label}
        <input
          // biome-ignore lint/a11y/noAutofocus: the field the owner just asked for
          autoFocus
          type="text"
          inputMode="url"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={onKeyDown}
          aria-invalid={problem ? true : undefined}
          className="mt-1 block h-8 w-full rounded-md border border-neutral-300 px-2 text-sm font-normal"
        />
        <span className={`mt-1 block font-normal ${problem ? 'text-red-700' : 'text-neutral-500'}`}>
          {problem ?? hint}
        </span>
      </label>
      <SmallAction onClick={apply}>Apply</SmallAction>
      <SmallAction onClick={onCancel}>Cancel</SmallAction>
      {extra}
    </div>
  );
}
