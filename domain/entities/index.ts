import { admins } from './admins.ts';
import { ads, campaigns, products } from './ads.ts';
import { appDevices } from './app-devices.ts';
import { appSettings } from './app-settings.ts';
import { appTemplates } from './app-templates.ts';
import { appUsers } from './app-users.ts';
import { attachments } from './attachments.ts';
import { auditLogs } from './audit-logs.ts';
import { balanceEntries } from './balance-entries.ts';
import { blogs } from './blogs.ts';
import { categories } from './categories.ts';
import { contactForms } from './contact-forms.ts';
import { devices } from './devices.ts';
import { enquiries } from './enquiries.ts';
import { eventRegistrations } from './event-registrations.ts';
import { facebook } from './facebook.ts';
import { industries } from './industries.ts';
import { invoices } from './invoices.ts';
import { doctordistricts, doctorgenders, doctorprofessions } from './lookup-lists.ts';
import { mailDeliveries } from './mail-deliveries.ts';
import { modules } from './modules.ts';
import { news } from './news.ts';
import { orders } from './orders.ts';
import { outbox } from './outbox.ts';
import { payments } from './payments.ts';
import { pushMessages } from './push-messages.ts';
import { subscribers } from './subscribers.ts';
import { subscriptions } from './subscriptions.ts';
import type { EntityDef } from './types.ts';
import { users } from './users.ts';

/** Definitions filed under their own service paths, which the typed services and `$populate` look them up by. */
function byServicePath<const T extends { [K in keyof T]: EntityDef & { service: K } }>(definitions: T): T {
  return definitions;
}

/** The definitions with their literal types: what registers a service typed by its definition reads. */
export const definitions = byServicePath({
  industries,
  modules,
  appTemplates,
  users,
  admins,
  blogs,
  contactForms,
  enquiries,
  outbox,
  subscribers,
  orders,
  payments,
  subscriptions,
  invoices,
  attachments,
  devices,
  balanceEntries,
  auditLogs,
  mailDeliveries,
  appSettings,
  doctorprofessions,
  doctordistricts,
  doctorgenders,
  appUsers,
  appDevices,
  pushMessages,
  categories,
  news,
  eventRegistrations,
  facebook,
  ads,
  campaigns,
  products,
});

/** The definitions with their literal types, which the typed services follow (services.ts). */
export type Definitions = typeof definitions;
export type EntityName = keyof Definitions;

/** Every entity by its service path, as code that goes through them all reads it. */
export const entities: Readonly<Record<EntityName, EntityDef>> = definitions;

/** Whether a service path is an entity's (a `$populate` target, a job's service, read as text). */
export function isEntityName(name: string): name is EntityName {
  return Object.hasOwn(definitions, name);
}
