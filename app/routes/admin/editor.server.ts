import { ADMIN_SCREENS, editorFieldsOf, isAdminSource, type AdminSource } from '../../../domain/admin/screens';
import { entities, isEntityName } from '../../../domain/entities/index';
import type { Role } from '../../../domain/entities/types';
import type { Locale } from '../../../domain/locales';
import type { ServerContext } from '../../context';
import { memberCallParams } from '../../portal/call-params.server';
import { recordName } from './records.server';

/** How many records a reference's choice lists (the first by the related entity's own order). */
export const REFERENCE_CHOICES = 100;

/**
 * The choices of the editor's reference fields: the related records' names, read as the staff
 * member. A related entity they may not list gives no choices (the current value still shows).
 */
export async function editorOptions(ctx: ServerContext, source: AdminSource, role: Role, mode: 'create' | 'patch', lang: Locale): Promise<Record<string, { value: string; label: string }[]>> {
  const options: Record<string, { value: string; label: string }[]> = {};
  // Reference fields, and the references inside a list's items (a plan's modules).
  const fields = editorFieldsOf(entities[source], role, mode).flatMap((field) => {
    if (!field.editable) return [];
    if (field.def.kind === 'ref' && field.def.ref) return [{ name: field.name, target: field.def.ref }];
    const itemRef = field.items?.find((column) => column.widget === 'ref' && column.ref);
    return itemRef?.ref ? [{ name: field.name, target: itemRef.ref }] : [];
  });
  await Promise.all(
    fields.map(async (field) => {
      const target = field.target;
      if (!isEntityName(target)) return;
      const title = isAdminSource(target) ? ADMIN_SCREENS[target].title : '_id';
      const service = (ctx.api as unknown as { service(path: string): { find(params: object): Promise<{ data: Record<string, unknown>[] }> } }).service(target);
      const page = await service
        .find({ ...memberCallParams(ctx, lang), query: { $select: ['_id', title], $limit: REFERENCE_CHOICES } })
        .catch(() => ({ data: [] as Record<string, unknown>[] }));
      options[field.name] = page.data.map((record) => ({ value: String(record._id), label: recordName(target, record, lang) }));
    }),
  );
  return options;
}
