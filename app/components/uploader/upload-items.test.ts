import { describe, expect, it } from 'vitest';
import {
  acceptsFile,
  allComplete,
  moveItem,
  type UploadedInfo,
  type UploadItem,
  uploadReducer,
  uploadedIds,
} from './upload-items';

const info = (id: string): UploadedInfo => ({
  id,
  _id: id,
  name: `${id}.png`,
  size: 10,
  mime: 'image/png',
  width: 1,
  height: 1,
  src: `/api/attachments/${id}`,
  thumb: `/api/thumbs/${id}`,
});

describe('uploadReducer', () => {
  const added = uploadReducer([], {
    type: 'add',
    items: [
      { key: 'a', name: 'a.png', size: 100 },
      { key: 'b', name: 'b.png', size: 200 },
    ],
  });

  it('starts each file processing at 0', () => {
    expect(added.map(({ status, progress, complete }) => ({ status, progress, complete }))).toEqual([
      { status: 'processing', progress: 0, complete: false },
      { status: 'processing', progress: 0, complete: false },
    ]);
  });

  it('moves progress forward only, within 0..1', () => {
    let items: UploadItem[] = uploadReducer(added, { type: 'progress', key: 'a', progress: 0.6 });
    items = uploadReducer(items, { type: 'progress', key: 'a', progress: 0.3 });
    expect(items[0]?.progress).toBe(0.6);
    items = uploadReducer(items, { type: 'progress', key: 'a', progress: 7 });
    expect(items[0]?.progress).toBe(1);
    expect(items[1]?.progress).toBe(0);
  });

  it('ends in success and complete, or error and complete with the message', () => {
    let items = uploadReducer(added, { type: 'succeeded', key: 'a', info: info('x1') });
    items = uploadReducer(items, { type: 'failed', key: 'b', error: 'This file is too large: the limit is 20 MB.' });
    expect(items[0]).toMatchObject({ status: 'success', complete: true, progress: 1, info: info('x1') });
    expect(items[1]).toMatchObject({
      status: 'error',
      complete: true,
      error: 'This file is too large: the limit is 20 MB.',
    });
    expect(allComplete(items)).toBe(true);
    expect(uploadedIds(items)).toEqual(['x1']);
    // A late progress event changes nothing once the file is done.
    expect(uploadReducer(items, { type: 'progress', key: 'b', progress: 0.9 })[1]?.progress).toBe(0);
  });

  it('cancels a file on its way, keeping its progress; a file already done keeps its outcome', () => {
    let items = uploadReducer(added, { type: 'progress', key: 'a', progress: 0.4 });
    items = uploadReducer(items, { type: 'succeeded', key: 'b', info: info('x2') });
    items = uploadReducer(items, { type: 'cancelled', key: 'a' });
    items = uploadReducer(items, { type: 'cancelled', key: 'b' });
    expect(items[0]).toMatchObject({ status: 'cancelled', complete: true, progress: 0.4 });
    expect(items[1]).toMatchObject({ status: 'success', complete: true });
    expect(uploadedIds(items)).toEqual(['x2']);
    expect(uploadReducer(items, { type: 'progress', key: 'a', progress: 0.9 })[0]?.progress).toBe(0.4);
  });

  it('reorders and removes', () => {
    const three = uploadReducer(added, { type: 'add', items: [{ key: 'c', name: 'c.png', size: 1 }] });
    expect(uploadReducer(three, { type: 'move', key: 'c', offset: -1 }).map((item) => item.key)).toEqual([
      'a',
      'c',
      'b',
    ]);
    expect(uploadReducer(three, { type: 'move', key: 'a', offset: -1 }).map((item) => item.key)).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(uploadReducer(three, { type: 'remove', key: 'b' }).map((item) => item.key)).toEqual(['a', 'c']);
    expect(allComplete([])).toBe(false);
  });
});

describe('moveItem', () => {
  it('moves within the list and never past its ends', () => {
    expect(moveItem([1, 2, 3, 4], 0, 2)).toEqual([2, 3, 1, 4]);
    expect(moveItem([1, 2, 3, 4], 3, 10)).toEqual([1, 2, 3, 4]);
    expect(moveItem([1, 2, 3, 4], 3, -10)).toEqual([4, 1, 2, 3]);
    expect(moveItem([1, 2], 5, 1)).toEqual([1, 2]);
  });
});

describe('acceptsFile', () => {
  it('takes images only by default filter, whatever the name says', () => {
    expect(acceptsFile({ name: 'a.png', type: 'image/png' }, 'image/*')).toBe(true);
    expect(acceptsFile({ name: 'a.png', type: 'text/html' }, 'image/*')).toBe(false);
    expect(acceptsFile({ name: 'notes.txt', type: '' }, 'image/*')).toBe(false);
  });

  it('reads types, families and extensions as an input’s accept does', () => {
    expect(acceptsFile({ name: 'Price.PDF', type: 'application/pdf' }, 'image/*, .pdf')).toBe(true);
    expect(acceptsFile({ name: 'a.gif', type: 'image/gif' }, 'image/png,image/jpeg')).toBe(false);
    expect(acceptsFile({ name: 'a.jpg', type: 'IMAGE/JPEG' }, 'image/jpeg')).toBe(true);
    expect(acceptsFile({ name: 'a.bin', type: 'application/octet-stream' }, '')).toBe(true);
  });
});
