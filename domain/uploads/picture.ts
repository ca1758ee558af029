/**
 * Where a user's picture is shown from (`GET /api/users/pic/{id}`), or null while they have none.
 * The picture's own id rides along as `v`: a replaced picture has a new address, so no browser
 * keeps showing the old one from its cache.
 */
export function pictureUrl(
  userId: string,
  pictureId: string | null | undefined,
  width?: 'small' | 'medium',
): string | null {
  if (!pictureId) return null;
  const query = new URLSearchParams({ v: pictureId });
  if (width) query.set('width', width);
  return `/api/users/pic/${encodeURIComponent(userId)}?${query}`;
}
