import { BadRequest, FeathersError, Forbidden, NotFound } from '@feathersjs/errors';
import { formatBytes } from '../../../domain/uploads/sizes.ts';

/** The uploads' refusals, each a message key in the three languages (locales/*.json, `uploads`). */
export const uploadErrors = {
  tooLarge: (maxBytes: number) =>
    new FeathersError('uploads.tooLarge', 'PayloadTooLarge', 413, 'payload-too-large', {
      max: formatBytes(maxBytes),
      maxBytes,
    }),
  tooManyFiles: (maxFiles: number) =>
    new FeathersError('uploads.tooManyFiles', 'PayloadTooLarge', 413, 'payload-too-large', { max: maxFiles }),
  tooManyPixels: (maxPixels: number) =>
    new FeathersError('uploads.tooManyPixels', 'Unprocessable', 422, 'unprocessable', {
      max: Math.floor(maxPixels / 1_000_000),
      maxPixels,
    }),
  unsupportedType: () =>
    new FeathersError('uploads.unsupportedType', 'UnsupportedMediaType', 415, 'unsupported-media-type', {}),
  imagesOnly: () => new FeathersError('uploads.imagesOnly', 'UnsupportedMediaType', 415, 'unsupported-media-type', {}),
  unreadableImage: () => new FeathersError('uploads.unreadableImage', 'Unprocessable', 422, 'unprocessable', {}),
  notMultipart: () =>
    new FeathersError('uploads.notMultipart', 'UnsupportedMediaType', 415, 'unsupported-media-type', {}),
  noFile: () => new BadRequest('uploads.noFile'),
  badRequest: () => new BadRequest('uploads.badRequest'),
  unknownFolder: () => new NotFound('uploads.unknownFolder'),
  forbiddenFolder: () => new Forbidden('uploads.forbiddenFolder'),
  invalidVariant: () => new BadRequest('uploads.invalidVariant'),
  notAnImage: () => new BadRequest('uploads.notAnImage'),
  notFound: () => new NotFound('uploads.notFound'),
};
