import { editorFieldsOf, recordName, titleFieldOf, type AdminSource } from '../../../domain/admin/screens';
import { entities, isEntityName } from '../../../domain/entities/index';
import type { Role } from '../../../domain/entities/types';
import type { Locale } from '../../../domain/locales';
import type { ServerContext } from '../../context';
import { memberCallParams } from '../../api/call-params.server';
import { recordsOf } from '../../api/services';

/** How many records a reference's choice lists (the first by the related entity's own order). */
export const REFERENCE_CHOICES = 100;

/**
 * The choices of the editor's reference fields: the related records' names, read as the staff
 * member, and always the record's own current one. A related entity they may not list gives no
 * choices (the current value still shows, by its id).
 */
export async function editorOptions(
  ctx: ServerContext,
  source: AdminSource,
  role: Role,
  mode: 'create' | 'patch',
  lang: Locale,
  record: Record<string, unknown> | null = null,
): Promise<Record<string, { value: string; label: string }[]>> {
  const options: Record<string, { value: string; label: string }[]> = {};
  // Reference fields, and the references inside a list's items (a plan's modules).
  const fields = editorFieldsOf(entities[source], role, mode).flatMap((field) => {
    // A reference shown read-only (an installation's user): only its current record's name.
    if (!field.editable)
      return field.def.kind === 'ref' && field.def.ref && field.widget === 'ref' && record?.[field.name]
        ? [{ name: field.name, target: field.def.ref, current: record[field.name], only: true }]
        : [];
    if (field.def.kind === 'ref' && field.def.ref)
      return [{ name: field.name, target: field.def.ref, current: record?.[field.name], only: false }];
    // A list of references: the chosen records' names (those not found no longer exist), then the first others.
    if (field.widget === 'refs' && field.def.ref)
      return [{ name: field.name, target: field.def.ref, current: record?.[field.name], only: false }];
    const itemRef = field.items?.find((column) => column.widget === 'ref' && column.ref);
    return itemRef?.ref ? [{ name: field.name, target: itemRef.ref, current: undefined, only: false }] : [];
  });
  await Promise.all(
    fields.map(async (field) => {
      const target = field.target;
      if (!isEntityName(target)) return;
      const title = titleFieldOf(target);
      const service = recordsOf(ctx.api, target);
      const params = memberCallParams(ctx, lang);
      const page = field.only
        ? { data: [] as Record<string, unknown>[] }
        : await service
            .find({ ...params, query: { $select: ['_id', title], $limit: REFERENCE_CHOICES } })
            .catch(() => ({ data: [] as Record<string, unknown>[] }));
      const found = page.data;
      const current = field.current;
      if (typeof current === 'string' && current && !found.some((related) => String(related._id) === current)) {
        const related = await service.get(current, { ...params, query: { $select: ['_id', title] } }).catch(() => null);
        if (related) found.unshift(related);
      }
      if (Array.isArray(current) && current.length > 0) {
        const ids = current.map(String).filter((id) => !found.some((related) => String(related._id) === id));
        for (let start = 0; start < ids.length; start += REFERENCE_CHOICES) {
          const chosen = await service
            .find({
              ...params,
              query: {
                _id: { $in: ids.slice(start, start + REFERENCE_CHOICES) },
                $select: ['_id', title],
                $limit: REFERENCE_CHOICES,
              },
            })
            .catch(() => ({ data: [] }));
          found.unshift(...chosen.data);
        }
      }
      options[field.name] = found.map((related) => ({
        value: String(related._id),
        label: recordName(target, related, lang),
      }));
    }),
  );
  // A gallery's pictures, by their file names, in the gallery's order (those still stored).
  for (const field of editorFieldsOf(entities[source], role, mode)) {
    if (!field.editable || field.widget !== 'gallery') continue;
    const ids = Array.isArray(record?.[field.name]) ? (record[field.name] as unknown[]).map(String) : [];
    if (ids.length === 0) continue;
    const found = await ctx.api
      .service('attachments')
      .find({
        ...memberCallParams(ctx, lang),
        query: { _id: { $in: ids }, $select: ['_id', 'name'], $limit: ids.length },
      })
      .catch(() => ({ data: [] as Record<string, unknown>[] }));
    const names = new Map(found.data.map((file) => [String(file._id), String(file.name)]));
    options[field.name] = ids.flatMap((id) => (names.has(id) ? [{ value: id, label: names.get(id) as string }] : []));
  }
  return options;
}
