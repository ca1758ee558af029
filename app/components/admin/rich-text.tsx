import Image from '@tiptap/extension-image';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useCallback, useId, useRef, useState } from 'react';
import { useLocale } from '../../i18n/messages';
import { inputClass } from '../forms/fields';
import {
  BoldIcon,
  BulletListIcon,
  ItalicIcon,
  LinkIcon,
  NumberedListIcon,
  PictureIcon,
  QuoteIcon,
  RedoIcon,
  UndoIcon,
} from '../ui/icons';
import { smallButton } from '../ui/buttons';
import type { UploadedInfo } from '../uploader/upload-items';
import { Uploader } from '../uploader/uploader';

/*
 * The editor of an article's body: only what the blogs service keeps after sanitising it
 * (server/services/blogs/sanitize.ts): headings h2 to h4, paragraphs, bold, italic, lists, block
 * quotes, links and images. What it cannot write it does not offer, so what staff see is what is
 * saved. The HTML goes in a hidden input of the form, which the save reads like any other field.
 * Pictures are uploaded from the toolbar with the site's uploader and go in at the cursor, by
 * their address on this site (`/api/attachments/{id}?width=large`), which the sanitiser keeps.
 */

/** The look of the text being edited, close to the article's own page. */
const CONTENT_STYLE = [
  'min-h-48 px-3.5 py-2.5 leading-relaxed outline-none',
  '[&_h2]:mt-5 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:mt-4 [&_h3]:text-lg [&_h3]:font-semibold [&_h4]:mt-3 [&_h4]:font-semibold',
  '[&_p]:mt-3 [&_ul]:mt-3 [&_ul]:list-disc [&_ol]:mt-3 [&_ol]:list-decimal [&_ul]:pl-6 [&_ol]:pl-6 [&_li]:mt-1 [&_li_p]:mt-0',
  '[&_a]:text-link [&_a]:underline [&_strong]:font-semibold',
  '[&_blockquote]:mt-4 [&_blockquote]:border-l-4 [&_blockquote]:border-accent-500 [&_blockquote]:bg-sunken [&_blockquote]:px-4 [&_blockquote]:py-2 [&_blockquote]:italic',
  '[&_img]:mt-3 [&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-lg',
  '[&>:first-child]:mt-0',
].join(' ');

const LINK_ADDRESS = /^(https?:\/\/\S+|mailto:\S+@\S+)$/i;

function extensions() {
  return [
    StarterKit.configure({
      heading: { levels: [2, 3, 4] },
      code: false,
      codeBlock: false,
      strike: false,
      underline: false,
      horizontalRule: false,
      hardBreak: false,
      trailingNode: false,
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: 'https',
        protocols: ['http', 'https', 'mailto'],
        HTMLAttributes: { rel: 'noopener', target: null },
      },
    }),
    Image.configure({ inline: false }),
  ];
}

function ToolButton({
  label,
  active,
  disabled,
  onClick,
  children,
}: {
  label: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={active === undefined ? undefined : active}
      disabled={disabled}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
      className="inline-flex h-9 min-w-9 items-center justify-center rounded-md px-2 text-sm font-semibold hover:bg-sunken disabled:opacity-40 aria-pressed:bg-brand-100 aria-pressed:text-brand-900 dark:aria-pressed:bg-brand-900 dark:aria-pressed:text-brand-50"
    >
      {children}
    </button>
  );
}

/** The width a picture goes in at: the `large` variant, never wider than the picture itself. */
const PICTURE_WIDTH = 1200;

/** The attributes of an uploaded picture in the text: its address, description and shown size. */
export function pictureAttributes(info: Pick<UploadedInfo, 'id' | 'width' | 'height'>, alt: string) {
  const src = `/api/attachments/${encodeURIComponent(info.id)}?width=large`;
  if (!info.width || !info.height) return { src, alt };
  const width = Math.min(PICTURE_WIDTH, info.width);
  return { src, alt, width, height: Math.round((info.height * width) / info.width) };
}

/**
 * The toolbar's picture panel: a description for readers who cannot see it, and the uploader
 * (one image, into the entity's folder). The uploaded picture goes in at the cursor and the panel
 * closes; Escape closes it too. Both give the focus back to the text.
 */
function PicturePanel({ editor, folder, onClose }: { editor: Editor; folder: string; onClose: () => void }) {
  const { t } = useLocale();
  const [alt, setAlt] = useState('');
  const altId = useId();
  const inserted = useRef(new Set<string>());
  const altText = useRef(alt);
  altText.current = alt;
  const uploaded = useCallback(
    (files: UploadedInfo[]) => {
      const fresh = files.filter((info) => !inserted.current.has(info.id));
      if (fresh.length === 0) return;
      for (const info of fresh) {
        inserted.current.add(info.id);
        editor.chain().focus().setImage(pictureAttributes(info, altText.current.trim())).run();
      }
      onClose();
    },
    [editor, onClose],
  );
  return (
    <div
      className="space-y-3 border-t border-line p-3"
      data-testid="rich-picture"
      role="group"
      aria-label={t('admin.richText.picture')}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        onClose();
        editor.commands.focus();
      }}
    >
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-48 flex-1">
          <label htmlFor={altId} className="text-xs font-semibold text-muted">
            {t('admin.richText.pictureAlt')}
          </label>
          <input
            id={altId}
            value={alt}
            autoFocus
            onChange={(event) => setAlt(event.target.value)}
            className={`${inputClass} mt-0.5 py-1.5`}
          />
        </div>
        <button
          type="button"
          className={smallButton}
          onClick={() => {
            onClose();
            editor.commands.focus();
          }}
        >
          {t('admin.cancel')}
        </button>
      </div>
      <p className="text-xs text-muted">{t('admin.richText.pictureHint')}</p>
      <Uploader url={`/api/attachments/upload/${folder}`} accept="image/*" multiple={false} onChange={uploaded} />
    </div>
  );
}

function Toolbar({ editor, controls, pictureFolder }: { editor: Editor; controls: string; pictureFolder?: string }) {
  const { t } = useLocale();
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      h2: current.isActive('heading', { level: 2 }),
      h3: current.isActive('heading', { level: 3 }),
      h4: current.isActive('heading', { level: 4 }),
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      bulletList: current.isActive('bulletList'),
      orderedList: current.isActive('orderedList'),
      blockquote: current.isActive('blockquote'),
      link: current.isActive('link'),
      href: (current.getAttributes('link').href as string | undefined) ?? '',
      canUndo: current.can().undo(),
      canRedo: current.can().redo(),
    }),
  });
  const [linking, setLinking] = useState(false);
  const [picturing, setPicturing] = useState(false);
  const closePicture = useCallback(() => setPicturing(false), []);
  const [address, setAddress] = useState('');
  const [wrong, setWrong] = useState(false);
  const addressId = useId();
  const chain = () => editor.chain().focus();

  const openLink = () => {
    setAddress(state.href);
    setWrong(false);
    setPicturing(false);
    setLinking(true);
  };
  const applyLink = () => {
    const href = address.trim();
    if (!href) {
      chain().extendMarkRange('link').unsetLink().run();
      setLinking(false);
      return;
    }
    if (!LINK_ADDRESS.test(href)) {
      setWrong(true);
      return;
    }
    if (editor.state.selection.empty && !state.link)
      chain()
        .insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] })
        .run();
    else chain().extendMarkRange('link').setLink({ href }).run();
    setLinking(false);
  };

  return (
    <div className="border-b border-line">
      <div
        role="toolbar"
        aria-label={t('admin.richText.toolbar')}
        aria-controls={controls}
        className="flex flex-wrap items-center gap-0.5 p-1"
      >
        {([2, 3, 4] as const).map((level) => (
          <ToolButton
            key={level}
            label={t('admin.richText.heading', { level })}
            active={state[`h${level}`]}
            onClick={() => chain().toggleHeading({ level }).run()}
          >
            H{level}
          </ToolButton>
        ))}
        <span className="mx-1 h-6 w-px bg-line" aria-hidden="true" />
        <ToolButton label={t('admin.richText.bold')} active={state.bold} onClick={() => chain().toggleBold().run()}>
          <BoldIcon className="h-4 w-4" />
        </ToolButton>
        <ToolButton
          label={t('admin.richText.italic')}
          active={state.italic}
          onClick={() => chain().toggleItalic().run()}
        >
          <ItalicIcon className="h-4 w-4" />
        </ToolButton>
        <ToolButton label={t('admin.richText.link')} active={state.link} onClick={openLink}>
          <LinkIcon className="h-4 w-4" />
        </ToolButton>
        {pictureFolder ? (
          <ToolButton
            label={t('admin.richText.picture')}
            active={picturing}
            onClick={() => {
              setLinking(false);
              setPicturing((open) => !open);
            }}
          >
            <PictureIcon className="h-4 w-4" />
          </ToolButton>
        ) : null}
        <span className="mx-1 h-6 w-px bg-line" aria-hidden="true" />
        <ToolButton
          label={t('admin.richText.bulletList')}
          active={state.bulletList}
          onClick={() => chain().toggleBulletList().run()}
        >
          <BulletListIcon className="h-4 w-4" />
        </ToolButton>
        <ToolButton
          label={t('admin.richText.orderedList')}
          active={state.orderedList}
          onClick={() => chain().toggleOrderedList().run()}
        >
          <NumberedListIcon className="h-4 w-4" />
        </ToolButton>
        <ToolButton
          label={t('admin.richText.quote')}
          active={state.blockquote}
          onClick={() => chain().toggleBlockquote().run()}
        >
          <QuoteIcon className="h-4 w-4" />
        </ToolButton>
        <span className="mx-1 h-6 w-px bg-line" aria-hidden="true" />
        <ToolButton label={t('admin.richText.undo')} disabled={!state.canUndo} onClick={() => chain().undo().run()}>
          <UndoIcon className="h-4 w-4" />
        </ToolButton>
        <ToolButton label={t('admin.richText.redo')} disabled={!state.canRedo} onClick={() => chain().redo().run()}>
          <RedoIcon className="h-4 w-4" />
        </ToolButton>
      </div>
      {linking ? (
        <div className="flex flex-wrap items-end gap-2 border-t border-line p-2" data-testid="rich-link">
          <div className="min-w-48 flex-1">
            <label htmlFor={addressId} className="text-xs font-semibold text-muted">
              {t('admin.richText.linkAddress')}
            </label>
            <input
              id={addressId}
              type="url"
              inputMode="url"
              value={address}
              placeholder="https://"
              autoFocus
              onChange={(event) => {
                setAddress(event.target.value);
                setWrong(false);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  applyLink();
                } else if (event.key === 'Escape') {
                  event.preventDefault();
                  setLinking(false);
                  editor.commands.focus();
                }
              }}
              aria-invalid={wrong || undefined}
              aria-describedby={wrong ? `${addressId}-error` : undefined}
              className={`${inputClass} mt-0.5 py-1.5`}
            />
          </div>
          <button type="button" className={smallButton} onClick={applyLink} data-testid="rich-link-apply">
            {t('admin.richText.applyLink')}
          </button>
          {state.link ? (
            <button
              type="button"
              className={smallButton}
              onClick={() => {
                chain().extendMarkRange('link').unsetLink().run();
                setLinking(false);
              }}
            >
              {t('admin.richText.removeLink')}
            </button>
          ) : null}
          <button type="button" className={smallButton} onClick={() => setLinking(false)}>
            {t('admin.cancel')}
          </button>
          {wrong ? (
            <p id={`${addressId}-error`} className="w-full text-sm text-red-700 dark:text-red-300">
              {t('admin.richText.wrongLink')}
            </p>
          ) : null}
        </div>
      ) : null}
      {picturing && pictureFolder ? (
        <PicturePanel editor={editor} folder={pictureFolder} onClose={closePicture} />
      ) : null}
    </div>
  );
}

export interface RichTextProps {
  id: string;
  name: string;
  /** The language of the text (the `lang` of what is typed). */
  lang: string;
  /** The saved HTML (already sanitised by the service). */
  initial: string;
  labelledBy: string;
  invalid: { 'aria-invalid'?: boolean; 'aria-describedby'?: string };
  autoFocus?: boolean;
  /** The attachments' folder pictures are uploaded to; without it the toolbar offers no picture. */
  pictureFolder?: string;
  /** The text changed (its HTML, empty when nothing is written): the form has unsaved edits. */
  onChange: (html: string) => void;
}

/**
 * A rich-text field: a toolbar and the text, its HTML kept in a hidden input named `name`. Until
 * the page's scripts run, the saved text shows as it reads, and the hidden input keeps it.
 */
export function RichText({
  id,
  name,
  lang,
  initial,
  labelledBy,
  invalid,
  autoFocus,
  pictureFolder,
  onChange,
}: RichTextProps) {
  const [html, setHtml] = useState(initial);
  const editor = useEditor({
    immediatelyRender: false,
    shouldRerenderOnTransaction: false,
    extensions: extensions(),
    content: initial,
    autofocus: autoFocus ? 'start' : false,
    editorProps: {
      attributes: {
        id,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelledBy,
        ...(invalid['aria-invalid'] ? { 'aria-invalid': 'true' } : {}),
        ...(invalid['aria-describedby'] ? { 'aria-describedby': invalid['aria-describedby'] } : {}),
        lang,
        class: CONTENT_STYLE,
        'data-testid': `rich-${name}`,
      },
    },
    onUpdate: ({ editor: current }) => {
      const next = current.isEmpty ? '' : current.getHTML();
      setHtml(next);
      onChange(next);
    },
  });
  return (
    <div
      className={`mt-1.5 w-full overflow-hidden rounded-lg border bg-raised text-ink shadow-sm focus-within:border-brand-500 ${invalid['aria-invalid'] ? 'border-red-600' : 'border-line'}`}
      data-testid={`rich-text-${id}`}
    >
      <input type="hidden" name={name} value={html} />
      {editor ? (
        <>
          <Toolbar editor={editor} controls={id} pictureFolder={pictureFolder} />
          <EditorContent editor={editor} />
        </>
      ) : (
        // Before the scripts run: the text as saved, read-only.
        <div className={CONTENT_STYLE} lang={lang} dangerouslySetInnerHTML={{ __html: initial }} />
      )}
    </div>
  );
}
