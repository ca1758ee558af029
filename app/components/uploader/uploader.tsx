import { useEffect, useId, useReducer, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { formatBytes } from '../../../domain/uploads/sizes';
import { useLocale } from '../../i18n/messages';
import { AlertIcon, CheckIcon, CloseIcon } from '../ui/icons';
import { sendFile, UploadError } from './send-file';
import { acceptsFile, type UploadedInfo, type UploadItem, uploadReducer } from './upload-items';

export interface UploaderProps {
  /** Where files go: `/api/attachments/upload` or `/api/attachments/upload/{folder}`. */
  url?: string;
  /** What a drop and the picker take (an `<input accept>`); images by default. */
  accept?: string;
  multiple?: boolean;
  /** A gallery: the files can be put in order (buttons, or Alt + arrow keys on a file). */
  reorderable?: boolean;
  /** A bearer token; without it the session cookie goes with each upload. */
  token?: string;
  /** Files already stored that the list starts with (a gallery's pictures), in order. */
  initial?: readonly UploadedInfo[];
  /** The files uploaded so far, in the list's order, whenever it changes. */
  onChange?: (uploaded: UploadedInfo[]) => void;
}

/** The bar's colour by state: the brand's while on its way and done, red when it failed, grey when cancelled. */
const PROGRESS_COLOURS: Record<UploadItem['status'], string> = {
  processing:
    '[&::-webkit-progress-value]:bg-brand-600 [&::-moz-progress-bar]:bg-brand-600 dark:[&::-webkit-progress-value]:bg-brand-400 dark:[&::-moz-progress-bar]:bg-brand-400',
  success:
    '[&::-webkit-progress-value]:bg-brand-600 [&::-moz-progress-bar]:bg-brand-600 dark:[&::-webkit-progress-value]:bg-brand-400 dark:[&::-moz-progress-bar]:bg-brand-400',
  error:
    '[&::-webkit-progress-value]:bg-red-600 [&::-moz-progress-bar]:bg-red-600 dark:[&::-webkit-progress-value]:bg-red-400 dark:[&::-moz-progress-bar]:bg-red-400',
  cancelled: '[&::-webkit-progress-value]:bg-muted [&::-moz-progress-bar]:bg-muted',
};

let counter = 0;
const nextKey = () => `upload-${(counter += 1)}`;

/** The list's first items: files stored before it opened, done. */
const storedItems = (stored: readonly UploadedInfo[]): UploadItem[] =>
  stored.map((info) => ({
    key: `stored-${info.id}`,
    name: info.name,
    size: info.size,
    status: 'success',
    progress: 1,
    complete: true,
    info,
  }));

/**
 * The one uploader of the editors and the profile page: a drop zone that takes only what `accept`
 * allows, a file picker, and a list of files each with its progress (0 to 1), state and, when it
 * failed, the server's message; cancel, previews and (for galleries) reordering. Keyboard and
 * screen readers: the picker is a real button, progress is a `<progress>`, states are announced.
 */
export function Uploader({
  url = '/api/attachments/upload',
  accept = 'image/*',
  multiple = true,
  reorderable = false,
  token,
  initial,
  onChange,
}: UploaderProps) {
  const { t, locale } = useLocale();
  const [items, dispatch] = useReducer(uploadReducer, initial ?? [], storedItems);
  const [dragging, setDragging] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  // The last outcomes (a file uploaded, failed or cancelled), said by the live region: outcomes that
  // land before the page shows the first of them (two files finishing together) are said together,
  // so none is lost to a screen reader. `shown` counts the outcomes' commits to the page.
  const [outcome, setOutcomeText] = useState({ text: '', shown: 0 });
  const shown = useRef(0);
  useEffect(() => {
    shown.current += 1;
  }, [outcome]);
  const setOutcome = (text: string) =>
    setOutcomeText((previous) =>
      previous.shown === shown.current && previous.text
        ? { text: `${previous.text} ${text}`, shown: shown.current }
        : { text, shown: shown.current },
    );
  const controllers = useRef(new Map<string, AbortController>());
  const previews = useRef(new Set<string>());
  const hintId = useId();
  const picker = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  // The file moved by the keyboard, which keeps the focus in its new place.
  const moved = useRef<string | null>(null);

  useEffect(() => {
    onChange?.(items.flatMap((item) => (item.info ? [item.info] : [])));
  }, [items, onChange]);
  useEffect(() => {
    if (!moved.current) return;
    list.current?.querySelector<HTMLElement>(`[data-upload-key="${moved.current}"]`)?.focus();
    moved.current = null;
  }, [items]);
  useEffect(() => {
    const urls = previews.current;
    const running = controllers.current;
    return () => {
      for (const controller of running.values()) controller.abort();
      for (const preview of urls) URL.revokeObjectURL(preview);
    };
  }, []);

  const start = (files: File[]) => {
    const taken = files.filter((file) => acceptsFile(file, accept));
    const left = files.filter((file) => !taken.includes(file));
    setRefused(
      left.length > 0
        ? t('uploader.refusedType', { count: left.length, names: left.map((file) => file.name).join(', ') })
        : null,
    );
    const chosen = multiple ? taken : taken.slice(0, 1);
    const added = chosen.map((file) => {
      const preview = file.type.startsWith('image/') ? URL.createObjectURL(file) : undefined;
      if (preview) previews.current.add(preview);
      return { file, key: nextKey(), preview };
    });
    dispatch({
      type: 'add',
      items: added.map(({ file, key, preview }) => ({ key, name: file.name, size: file.size, preview })),
    });
    for (const { file, key } of added) {
      const name = file.name;
      const controller = new AbortController();
      controllers.current.set(key, controller);
      sendFile(url, file, {
        locale,
        token,
        signal: controller.signal,
        onProgress: (progress) => dispatch({ type: 'progress', key, progress }),
      })
        .then((info) => {
          dispatch({ type: 'succeeded', key, info });
          setOutcome(t('uploader.outcome.success', { name }));
        })
        .catch((error: unknown) => {
          if (error instanceof DOMException && error.name === 'AbortError') return;
          const message = error instanceof UploadError && error.message ? error.message : t('uploader.failed');
          dispatch({ type: 'failed', key, error: message });
          setOutcome(t('uploader.outcome.error', { name, error: message }));
        })
        .finally(() => controllers.current.delete(key));
    }
  };

  /**
   * A file on its way is stopped and stays in the list, cancelled; a file done is taken off the
   * list, and the keyboard's focus moves to the next file's button (or the one before, or the picker).
   */
  const cancelOrRemove = (item: UploadItem, button: HTMLButtonElement) => {
    if (!item.complete) {
      controllers.current.get(item.key)?.abort();
      dispatch({ type: 'cancelled', key: item.key });
      setOutcome(t('uploader.outcome.cancelled', { name: item.name }));
      return;
    }
    const row = button.closest('li');
    const neighbour = (row?.nextElementSibling ?? row?.previousElementSibling)?.querySelector<HTMLButtonElement>(
      'button[data-upload-action]',
    );
    (neighbour ?? picker.current)?.focus();
    if (item.preview) {
      URL.revokeObjectURL(item.preview);
      previews.current.delete(item.preview);
    }
    dispatch({ type: 'remove', key: item.key });
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    start([...event.dataTransfer.files]);
  };

  const onItemKey = (event: KeyboardEvent<HTMLLIElement>, item: UploadItem) => {
    if (!reorderable || !event.altKey) return;
    const offset =
      event.key === 'ArrowUp' || event.key === 'ArrowLeft'
        ? -1
        : event.key === 'ArrowDown' || event.key === 'ArrowRight'
          ? 1
          : 0;
    if (offset === 0) return;
    event.preventDefault();
    moved.current = item.key;
    dispatch({ type: 'move', key: item.key, offset });
  };

  const done = items.filter((item) => item.complete).length;

  return (
    <div className="flex flex-col gap-3">
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-dragging={dragging || undefined}
        data-testid="uploader-drop"
        className={`flex flex-col items-center gap-2 rounded-lg border-2 border-dashed p-6 text-center ${dragging ? 'border-brand-500 bg-sunken' : 'border-line'}`}
      >
        <p id={hintId} className="text-sm text-muted">
          {t(accept === 'image/*' ? 'uploader.dropImages' : 'uploader.dropFiles')}
        </p>
        {/* The input sits in its label, so the label shows the keyboard focus the input takes. */}
        <label className="cursor-pointer rounded-md border border-line bg-raised px-4 py-2 text-sm font-medium hover:bg-sunken focus-within:ring-2 focus-within:ring-brand-500">
          <input
            ref={picker}
            type="file"
            accept={accept}
            multiple={multiple}
            className="sr-only"
            aria-describedby={hintId}
            onChange={(event) => {
              start([...(event.currentTarget.files ?? [])]);
              event.currentTarget.value = '';
            }}
          />
          {t(multiple ? 'uploader.chooseFiles' : 'uploader.chooseFile')}
        </label>
      </div>
      {refused && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {refused}
        </p>
      )}
      <p aria-live="polite" className="sr-only" data-testid="uploader-live">
        {items.length > 0
          ? `${outcome.text ? `${outcome.text} ` : ''}${t('uploader.summary', { done, total: items.length })}`
          : ''}
      </p>
      {items.length > 0 && (
        <ul ref={list} className="flex flex-col gap-2" aria-label={t('uploader.files')}>
          {items.map((item, index) => (
            <li
              key={item.key}
              data-upload-key={item.key}
              tabIndex={reorderable ? 0 : undefined}
              onKeyDown={(event) => onItemKey(event, item)}
              aria-describedby={reorderable ? `${item.key}-hint` : undefined}
              data-status={item.status}
              data-complete={item.complete || undefined}
              className="flex items-center gap-3 rounded-md border border-line p-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              {/* A refused file's preview would be a broken picture: it has none. */}
              {item.info?.thumb || (item.preview && item.status !== 'error') ? (
                <img
                  src={item.info?.thumb ?? item.preview}
                  alt=""
                  width={50}
                  height={50}
                  className="h-[50px] w-[50px] shrink-0 rounded object-cover"
                />
              ) : (
                <span aria-hidden="true" className="h-[50px] w-[50px] shrink-0 rounded bg-sunken" />
              )}
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <span className="truncate text-sm font-medium">{item.name}</span>
                <span className="text-xs text-muted">
                  {item.size === undefined ? '' : `${formatBytes(item.size, locale)} · `}
                  {t(`uploader.status.${item.status}`)}
                  {item.complete && <span className="sr-only"> · {t('uploader.status.complete')}</span>}
                </span>
                <progress
                  value={item.progress}
                  max={1}
                  aria-label={t('uploader.progress', { name: item.name })}
                  className={`h-1.5 w-full appearance-none overflow-hidden rounded-full bg-sunken [&::-webkit-progress-bar]:bg-sunken ${PROGRESS_COLOURS[item.status]}`}
                />
                {item.error && (
                  <span role="alert" className="flex items-start gap-1 text-xs text-red-700 dark:text-red-400">
                    <AlertIcon aria-hidden="true" className="mt-px h-4 w-4 shrink-0" /> {item.error}
                  </span>
                )}
              </div>
              {item.status === 'success' && (
                <CheckIcon className="h-5 w-5 shrink-0 text-brand-600 dark:text-brand-300" />
              )}
              {reorderable && (
                <span className="flex flex-col">
                  <span id={`${item.key}-hint`} className="sr-only">
                    {t('uploader.reorderHint')}
                  </span>
                  <button
                    type="button"
                    disabled={index === 0}
                    onClick={() => dispatch({ type: 'move', key: item.key, offset: -1 })}
                    className="rounded px-2 text-xs hover:bg-sunken disabled:opacity-30"
                  >
                    <span aria-hidden="true">▲</span>
                    <span className="sr-only">{t('uploader.moveUp', { name: item.name })}</span>
                  </button>
                  <button
                    type="button"
                    disabled={index === items.length - 1}
                    onClick={() => dispatch({ type: 'move', key: item.key, offset: 1 })}
                    className="rounded px-2 text-xs hover:bg-sunken disabled:opacity-30"
                  >
                    <span aria-hidden="true">▼</span>
                    <span className="sr-only">{t('uploader.moveDown', { name: item.name })}</span>
                  </button>
                </span>
              )}
              <button
                type="button"
                data-upload-action
                onClick={(event) => cancelOrRemove(item, event.currentTarget)}
                className="rounded p-1 hover:bg-sunken focus-visible:ring-2 focus-visible:ring-brand-500"
              >
                <CloseIcon aria-hidden="true" />
                <span className="sr-only">
                  {t(item.complete ? 'uploader.remove' : 'uploader.cancel', { name: item.name })}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
