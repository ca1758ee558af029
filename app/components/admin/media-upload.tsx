import { useCallback, useId, useRef, useState } from 'react';
import { type AttachmentFolder, CONTENT_FOLDERS } from '../../../domain/uploads/limits';
import { useLocale } from '../../i18n/messages';
import { inputClass } from '../forms/fields';
import type { UploadedInfo } from '../uploader/upload-items';
import { Uploader } from '../uploader/uploader';

/** What the media library takes: images, and the documents the server keeps (PDF). */
const MEDIA_ACCEPT = 'image/*,application/pdf';

/**
 * The media library's upload panel (the files and images table): several files at once into a
 * content folder chosen here, each with its progress, through the site's one uploader. The table
 * shows each new file as it is stored (its rows are live; `onUploaded` reads them again too).
 */
export function MediaUpload({ onUploaded }: { onUploaded: () => void }) {
  const { t } = useLocale();
  const [folder, setFolder] = useState<AttachmentFolder>('general');
  const headingId = useId();
  const selectId = useId();
  const done = useRef(0);
  const changed = useCallback(
    (files: UploadedInfo[]) => {
      if (files.length > done.current) onUploaded();
      done.current = files.length;
    },
    [onUploaded],
  );
  return (
    <section
      aria-labelledby={headingId}
      className="mb-4 rounded-2xl border border-line bg-raised p-4 shadow-sm sm:p-5"
      data-testid="media-upload"
    >
      <h2 id={headingId} className="text-lg font-semibold">
        {t('admin.upload.title')}
      </h2>
      <div className="mt-3 max-w-xs">
        <label htmlFor={selectId} className="text-sm font-medium">
          {t('admin.upload.folder')}
        </label>
        <select
          id={selectId}
          value={folder}
          onChange={(event) => {
            setFolder(event.target.value as AttachmentFolder);
            done.current = 0;
          }}
          className={`${inputClass} mt-1.5`}
          data-testid="media-folder"
        >
          {CONTENT_FOLDERS.map((name) => (
            <option key={name} value={name}>
              {t(`resources.attachments.values.folder.${name}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="mt-4">
        {/* A new folder starts a new list: the files shown are those sent into it. */}
        <Uploader
          key={folder}
          url={`/api/attachments/upload/${folder}`}
          accept={MEDIA_ACCEPT}
          multiple
          onChange={changed}
        />
      </div>
    </section>
  );
}
