import { useCallback, useState } from 'react';
import { useLocale } from '../../i18n/messages';
import { inputClass } from '../forms/fields';
import type { UploadedInfo } from '../uploader/upload-items';
import { Uploader } from '../uploader/uploader';

/**
 * An image field in the editor (a blog post's cover): the picture's address, shown, typed, or
 * filled in by uploading a file with the site's uploader (into the folder the entity's images go to).
 */
export function ImageField({
  id,
  name,
  value,
  folder,
  invalid,
  onChange,
}: {
  id: string;
  name: string;
  value: string;
  folder: string;
  invalid: Record<string, unknown>;
  onChange: (address: string) => void;
}) {
  const { t } = useLocale();
  const [address, setAddress] = useState(value);
  const uploaded = useCallback(
    (files: UploadedInfo[]) => {
      const last = files[files.length - 1];
      if (!last) return;
      setAddress(last.src);
      onChange(last.src);
    },
    [onChange],
  );
  const typed = (next: string) => {
    setAddress(next);
    onChange(next);
  };
  return (
    <div className="mt-1.5 space-y-3" data-testid={`image-${id.replace(/^field-/, '')}`}>
      {address ? (
        <img
          src={address}
          alt=""
          className="h-32 w-auto rounded-lg border border-line object-cover"
          data-testid="image-preview"
        />
      ) : null}
      <input
        id={id}
        name={name}
        value={address}
        onChange={(event) => typed(event.target.value)}
        className={inputClass}
        placeholder={t('admin.image.address')}
        {...invalid}
      />
      <Uploader url={`/api/attachments/upload/${folder}`} multiple={false} onChange={uploaded} />
    </div>
  );
}
