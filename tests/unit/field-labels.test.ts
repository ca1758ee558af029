import { describe, expect, it } from 'vitest';
import { entities } from '../../domain/entities/index.ts';
import { confirmationName, confirmedFields } from '../../domain/entities/scope.ts';
import { fieldLabelKey } from '../../domain/entities/types.ts';
import en from '../../locales/en.json';
import zhCn from '../../locales/zh-cn.json';
import zhHk from '../../locales/zh-hk.json';

type Tree = { [key: string]: string | Tree };
const catalogues: Record<string, Tree> = { en, 'zh-hk': zhHk, 'zh-cn': zhCn };

/** The message at a dotted key, or undefined. */
function messageAt(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

const fieldKeys: string[] = Object.values(entities).flatMap((definition) => [
  ...Object.keys(definition.fields).map((field) => fieldLabelKey(definition.service, field)),
  // The editor's confirmation of a confirmed field (`passwordConfirm`) has a label of its own.
  ...confirmedFields(definition.fields).map((field) => fieldLabelKey(definition.service, confirmationName(field))),
]);

describe('field labels', () => {
  it('are keyed by the service path and the field name', () => {
    expect(fieldLabelKey('users', 'email')).toBe('resources.users.fields.email');
  });

  it('name every field of every entity in en, zh-hk and zh-cn', () => {
    const missing = Object.entries(catalogues).flatMap(([locale, tree]) =>
      fieldKeys.filter((key) => !messageAt(tree, key)?.trim()).map((key) => `${locale} ${key}`),
    );
    expect(missing).toEqual([]);
  });

  it('name no field that a definition no longer has', () => {
    const resources = (en as Tree).resources;
    const labelled = typeof resources === 'object' ? Object.entries(resources) : [];
    const stale = labelled.flatMap(([entity, group]) => {
      const fields = typeof group === 'object' && typeof group.fields === 'object' ? Object.keys(group.fields) : [];
      return fields.map((field) => `resources.${entity}.fields.${field}`).filter((key) => !fieldKeys.includes(key));
    });
    expect(stale).toEqual([]);
  });
});
