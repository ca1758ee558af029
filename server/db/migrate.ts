import type { Knex } from 'knex';
import * as m001 from './migrations/001_catalogue_and_users.ts';
import * as m002 from './migrations/002_site_settings_and_translations.ts';
import * as m003 from './migrations/003_blogs.ts';
import * as m004 from './migrations/004_forms_and_outbox.ts';
import * as m005 from './migrations/005_subscribers.ts';
import * as m006 from './migrations/006_user_sessions.ts';
import * as m007 from './migrations/007_user_profile.ts';
import * as m008 from './migrations/008_purchase.ts';
import * as m009 from './migrations/009_email_verifications.ts';
import * as m010 from './migrations/010_payment_sandbox.ts';
import * as m011 from './migrations/011_payments.ts';
import * as m012 from './migrations/012_attachments.ts';
import * as m013 from './migrations/013_billing_anchor_month_end.ts';
import * as m014 from './migrations/014_password_resets.ts';
import * as m015 from './migrations/015_add_on_orders.ts';
import * as m016 from './migrations/016_socket_tickets.ts';
import * as m017 from './migrations/017_subscription_lifecycle.ts';
import * as m018 from './migrations/018_devices.ts';
import * as m019 from './migrations/019_balance_entries.ts';
import * as m020 from './migrations/020_search_indexes.ts';
import * as m021 from './migrations/021_audit_logs.ts';
import * as m022 from './migrations/022_mail_deliveries.ts';
import * as m023 from './migrations/023_follow_up.ts';
import * as m024 from './migrations/024_exports.ts';
import * as m025 from './migrations/025_contact_form_read_indexes.ts';
import * as m026 from './migrations/026_idempotency_keys.ts';
import * as m027 from './migrations/027_terminations.ts';
import * as m028 from './migrations/028_app_settings.ts';
import * as m029 from './migrations/029_invoice_balance_applied.ts';
import * as m030 from './migrations/030_order_billing_period.ts';
import * as m031 from './migrations/031_app_settings_gallery.ts';
import * as m032 from './migrations/032_lookup_lists.ts';
import * as m033 from './migrations/033_app_users_and_devices.ts';
import * as m034 from './migrations/034_push_messages.ts';
import * as m035 from './migrations/035_app_password_resets.ts';
import * as m036 from './migrations/036_news_and_events.ts';
import * as m037 from './migrations/037_ads_campaigns_products.ts';
import * as m038 from './migrations/038_news_publishing.ts';
import * as m039 from './migrations/039_facebook_import.ts';
import * as m040 from './migrations/040_ad_days.ts';
import * as m041 from './migrations/041_invoice_paid_at.ts';
import * as m042 from './migrations/042_invoice_refunded_at.ts';

/** Migrations in order. Listed here (not discovered on disk) so they run the same from source or a test. */
const migrations: Record<string, Knex.Migration> = {
  '001_catalogue_and_users': m001,
  '002_site_settings_and_translations': m002,
  '003_blogs': m003,
  '004_forms_and_outbox': m004,
  '005_subscribers': m005,
  '006_user_sessions': m006,
  '007_user_profile': m007,
  '008_purchase': m008,
  '009_email_verifications': m009,
  '010_payment_sandbox': m010,
  '011_payments': m011,
  '012_attachments': m012,
  '013_billing_anchor_month_end': m013,
  '014_password_resets': m014,
  '015_add_on_orders': m015,
  '016_socket_tickets': m016,
  '017_subscription_lifecycle': m017,
  '018_devices': m018,
  '019_balance_entries': m019,
  '020_search_indexes': m020,
  '021_audit_logs': m021,
  '022_mail_deliveries': m022,
  '023_follow_up': m023,
  '024_exports': m024,
  '025_contact_form_read_indexes': m025,
  '026_idempotency_keys': m026,
  '027_terminations': m027,
  '028_app_settings': m028,
  '029_invoice_balance_applied': m029,
  '030_order_billing_period': m030,
  '031_app_settings_gallery': m031,
  '032_lookup_lists': m032,
  '033_app_users_and_devices': m033,
  '034_push_messages': m034,
  '035_app_password_resets': m035,
  '036_news_and_events': m036,
  '037_ads_campaigns_products': m037,
  '038_news_publishing': m038,
  '039_facebook_import': m039,
  '040_ad_days': m040,
  '041_invoice_paid_at': m041,
  '042_invoice_refunded_at': m042,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name] as Knex.Migration,
};

export async function migrateLatest(knex: Knex): Promise<void> {
  await knex.migrate.latest({ migrationSource: source });
}
