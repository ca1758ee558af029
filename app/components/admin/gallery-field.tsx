import { useCallback, useMemo, useRef, useState } from 'react';
import type { UploadedInfo } from '../uploader/upload-items';
import { Uploader } from '../uploader/uploader';

/**
 * A gallery in the editor (the app settings' home screen): uploaded pictures in the order shown,
 * put in order with the uploader's buttons or Alt + arrow keys, taken off with Remove. The form
 * sends their ids, one a line, in that order.
 */
export function GalleryField({
  id,
  name,
  pictures,
  folder,
  labelledBy,
  onChange,
}: {
  id: string;
  name: string;
  /** The pictures stored in the gallery now, in order: id and file name. */
  pictures: readonly { value: string; label: string }[];
  folder: string;
  labelledBy: string;
  /** The ids, one a line, whenever the gallery changes. */
  onChange: (ids: string) => void;
}) {
  const initial = useMemo<UploadedInfo[]>(
    () =>
      pictures.map(({ value, label }) => ({
        id: value,
        name: label,
        src: `/api/attachments/${encodeURIComponent(value)}`,
        thumb: `/api/thumbs/${encodeURIComponent(value)}`,
      })),
    [pictures],
  );
  const [ids, setIds] = useState(() => initial.map((picture) => picture.id).join('\n'));
  const sent = useRef(ids);
  const changed = useCallback(
    (files: UploadedInfo[]) => {
      const next = files.map((file) => file.id).join('\n');
      if (next === sent.current) return;
      sent.current = next;
      setIds(next);
      onChange(next);
    },
    [onChange],
  );
  return (
    <div
      className="mt-1.5"
      role="group"
      aria-labelledby={labelledBy}
      data-testid={`gallery-${id.replace(/^field-/, '')}`}
    >
      <input type="hidden" id={id} name={name} value={ids} />
      <Uploader url={`/api/attachments/upload/${folder}`} multiple reorderable initial={initial} onChange={changed} />
    </div>
  );
}
