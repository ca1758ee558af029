/**
 * What every form's action answers (contact form, enquiry, newsletter; `submitForm` in
 * app/forms.server.ts): success, or the errors, a message and the answers to show again.
 */
export type FormResult =
  | { ok: true; values?: undefined; errors?: undefined; message?: undefined }
  | { ok: false; message: string; errors: Record<string, string>; values: Record<string, unknown> };
