/**
 * The uploader's state, without React: the files chosen, each with its progress (0 to 1) and
 * state (spec: processing, then success and complete, or error and complete; or cancelled and
 * complete when the person stopped it), and the rules of
 * what a drop accepts and how a gallery is reordered.
 */
import type { AttachmentInfo } from '../../../domain/uploads/info';

/**
 * What the server answers for a stored file (`data.info`); a file already stored when the list
 * opened (a gallery's pictures) is known by its id, name and addresses only.
 */
export type UploadedInfo = Pick<AttachmentInfo, 'id' | 'name' | 'src' | 'thumb'> & Partial<AttachmentInfo>;

export type UploadStatus = 'processing' | 'success' | 'error' | 'cancelled';

export interface UploadItem {
  key: string;
  name: string;
  /** Bytes; unknown for a file stored before the list opened. */
  size?: number;
  status: UploadStatus;
  /** Sent so far, 0 to 1. */
  progress: number;
  /** Done, whichever way: succeeded, failed or cancelled. */
  complete: boolean;
  /** The server's message (in the page's language) when it failed. */
  error?: string;
  info?: UploadedInfo;
  /** An object URL of the local file, for the preview while it uploads. */
  preview?: string;
}

export type UploadAction =
  | { type: 'add'; items: { key: string; name: string; size: number; preview?: string }[] }
  | { type: 'progress'; key: string; progress: number }
  | { type: 'succeeded'; key: string; info: UploadedInfo }
  | { type: 'failed'; key: string; error: string }
  | { type: 'cancelled'; key: string }
  | { type: 'remove'; key: string }
  | { type: 'move'; key: string; offset: number };

const update = (items: readonly UploadItem[], key: string, change: (item: UploadItem) => UploadItem) =>
  items.map((item) => (item.key === key ? change(item) : item));

export function uploadReducer(items: readonly UploadItem[], action: UploadAction): UploadItem[] {
  switch (action.type) {
    case 'add':
      return [
        ...items,
        ...action.items.map((item) => ({ ...item, status: 'processing' as const, progress: 0, complete: false })),
      ];
    case 'progress':
      // Progress only moves forward, and stays within 0..1 whatever the browser reports.
      return update(items, action.key, (item) =>
        item.complete
          ? item
          : { ...item, progress: Math.max(item.progress, Math.min(1, Math.max(0, action.progress))) },
      );
    case 'succeeded':
      return update(items, action.key, (item) => ({
        ...item,
        status: 'success',
        progress: 1,
        complete: true,
        info: action.info,
        error: undefined,
      }));
    case 'failed':
      return update(items, action.key, (item) => ({ ...item, status: 'error', complete: true, error: action.error }));
    case 'cancelled':
      // Only a file still on its way can be cancelled; one already done keeps its outcome.
      return update(items, action.key, (item) =>
        item.complete ? item : { ...item, status: 'cancelled', complete: true },
      );
    case 'remove':
      return items.filter((item) => item.key !== action.key);
    case 'move':
      return moveItem(
        items,
        items.findIndex((item) => item.key === action.key),
        action.offset,
      );
  }
}

/** The list with the item at `from` moved by `offset` places, kept within the list. */
export function moveItem<T>(items: readonly T[], from: number, offset: number): T[] {
  if (from < 0 || from >= items.length) return [...items];
  const to = Math.min(items.length - 1, Math.max(0, from + offset));
  const moved = [...items];
  const [item] = moved.splice(from, 1);
  if (item !== undefined) moved.splice(to, 0, item);
  return moved;
}

/**
 * Whether a file's type matches an `accept` filter as an `<input accept>` reads it: MIME types
 * (`image/png`), families (`image/*`) and extensions (`.pdf`), comma-separated. A drop is checked
 * with it, since browsers apply `accept` to the picker only.
 */
export function acceptsFile(file: { name: string; type: string }, accept: string): boolean {
  const rules = accept
    .split(',')
    .map((rule) => rule.trim().toLowerCase())
    .filter(Boolean);
  if (rules.length === 0) return true;
  const type = file.type.toLowerCase();
  const name = file.name.toLowerCase();
  return rules.some((rule) => {
    if (rule.startsWith('.')) return name.endsWith(rule);
    if (rule.endsWith('/*')) return type.startsWith(rule.slice(0, -1));
    return type === rule;
  });
}

/** The ids of the files uploaded, in the list's order (a gallery's order). */
export function uploadedIds(items: readonly UploadItem[]): string[] {
  return items.flatMap((item) => (item.info ? [item.info.id] : []));
}

/** Whether every file is done (the list's `complete`). */
export function allComplete(items: readonly UploadItem[]): boolean {
  return items.length > 0 && items.every((item) => item.complete);
}
