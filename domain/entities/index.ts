import { appTemplates } from './app-templates.ts';
import { blogs } from './blogs.ts';
import { contactForms } from './contact-forms.ts';
import { enquiries } from './enquiries.ts';
import { industries } from './industries.ts';
import { modules } from './modules.ts';
import { outbox } from './outbox.ts';
import { subscribers } from './subscribers.ts';
import type { EntityDef } from './types.ts';
import { users } from './users.ts';

export const entities = { industries, modules, appTemplates, users, blogs, contactForms, enquiries, outbox, subscribers } satisfies Record<string, EntityDef>;
export type EntityName = keyof typeof entities;
