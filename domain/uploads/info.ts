/** The answer for a stored file, the same for the server and the uploader (decision 022). */
/** What an upload answers for each file (`data.info`), as existing clients read it. */
export interface AttachmentInfo {
  id: string;
  _id: string;
  name: string;
  size: number;
  mime: string;
  width: number | null;
  height: number | null;
  /** The file's URL; for an image, its variants are this with `?width=…&format=…`. */
  src: string;
  /** The thumbnail's URL (images), else null. */
  thumb: string | null;
}
