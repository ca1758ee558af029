import { useCallback, useState } from 'react';
import { useLocale } from '../../i18n/messages';
import type { UploadedInfo } from '../uploader/upload-items';
import { Uploader } from '../uploader/uploader';
import { smallButton } from '../ui/buttons';

/**
 * An image field that refers to an attachment by its id (the apps' header photo): the picture as
 * stored, its file name, a way to take it off, and the site's uploader, whose upload (into the
 * entity's folder) becomes the field's value. The form sends the id.
 */
export function AttachmentImageField({
  id,
  name,
  value,
  fileName,
  folder,
  labelledBy,
  onChange,
}: {
  id: string;
  name: string;
  /** The attachment's id, or empty. */
  value: string;
  /** The attachment's name, where the page knows it. */
  fileName?: string;
  folder: string;
  labelledBy: string;
  /** The attachment chosen (its id), or none (empty). */
  onChange: (id: string) => void;
}) {
  const { t } = useLocale();
  const [photo, setPhoto] = useState({ id: value, name: fileName ?? '' });
  const uploaded = useCallback(
    (files: UploadedInfo[]) => {
      const last = files[files.length - 1];
      if (!last) return;
      setPhoto({ id: last.id, name: last.name });
      onChange(last.id);
    },
    [onChange],
  );
  return (
    <div
      className="mt-1.5 space-y-3"
      role="group"
      aria-labelledby={labelledBy}
      data-testid={`image-${id.replace(/^field-/, '')}`}
    >
      <input type="hidden" id={id} name={name} value={photo.id} />
      {photo.id ? (
        <div className="flex flex-wrap items-end gap-3">
          <img
            src={`/api/attachments/${encodeURIComponent(photo.id)}?width=small`}
            alt=""
            className="h-32 w-auto rounded-lg border border-line object-cover"
            data-testid="image-preview"
          />
          <div className="min-w-0 space-y-2 text-sm">
            {photo.name ? (
              <p className="truncate" data-testid="image-name">
                {photo.name}
              </p>
            ) : null}
            <button
              type="button"
              className={smallButton}
              onClick={() => {
                setPhoto({ id: '', name: '' });
                onChange('');
              }}
              data-testid="image-remove"
            >
              {t('admin.image.remove')}
            </button>
          </div>
        </div>
      ) : (
        <p className="text-sm text-muted" data-testid="image-none">
          {t('admin.image.none')}
        </p>
      )}
      <Uploader url={`/api/attachments/upload/${folder}`} multiple={false} onChange={uploaded} />
    </div>
  );
}
