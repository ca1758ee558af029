import type { Knex } from 'knex';
import type { CreateOf } from '../../../domain/entities/contract.ts';
import type { appSettings } from '../../../domain/entities/app-settings.ts';
import { formatIsoDate } from '../../../domain/format.ts';
import { newId } from '../ids.ts';

type AppSettingsValues = Required<Omit<CreateOf<typeof appSettings>, 'headerPhoto' | 'homeGallery'>>;

/**
 * The apps' home screen as it first stands (decision 046): the brand's colours and the two maps
 * centred on Hong Kong and on Canada, the gallery empty (its pictures are uploaded by staff). The
 * sponsor is a demo's; a real one is set by staff.
 */
export const APP_SETTINGS_SEED: Omit<AppSettingsValues, 'sponsorName' | 'sponsorShown'> = {
  header: { en: 'Run your shop from anywhere', 'zh-hk': '隨時隨地打理你的店舖', 'zh-cn': '随时随地打理你的店铺' },
  footerColor1: '#14625c',
  footerColor2: '#25978a',
  showEvent: true,
  showShop: true,
  mapHongKong: { latitude: 22.3193, longitude: 114.1694, latitudeDelta: 0.35, longitudeDelta: 0.35 },
  mapCanada: { latitude: 56.1304, longitude: -106.3468, latitudeDelta: 30, longitudeDelta: 60 },
};

/** A demo sponsor, shown for 60 Hong Kong days from the seed day. */
export function demoSponsor(now: Date): Pick<AppSettingsValues, 'sponsorName' | 'sponsorShown'> {
  const to = new Date(now.getTime() + 60 * 24 * 3600 * 1000);
  return { sponsorName: 'Harbour Coffee Roasters', sponsorShown: { from: formatIsoDate(now), to: formatIsoDate(to) } };
}

/** Makes the one record of the apps' settings, with the demo sponsor while demo data is on. */
export async function seedAppSettings(trx: Knex.Transaction, demoData: boolean, now: Date): Promise<void> {
  const values = { ...APP_SETTINGS_SEED, ...(demoData ? demoSponsor(now) : {}) };
  await trx('app_settings')
    .insert({
      id: newId(),
      header: JSON.stringify(values.header),
      footer_color1: values.footerColor1,
      footer_color2: values.footerColor2,
      show_event: values.showEvent,
      show_shop: values.showShop,
      sponsor_name: 'sponsorName' in values ? values.sponsorName : null,
      sponsor_shown: 'sponsorShown' in values ? JSON.stringify(values.sponsorShown) : null,
      map_hong_kong: JSON.stringify(values.mapHongKong),
      map_canada: JSON.stringify(values.mapCanada),
    })
    // Another instance's first start made it meanwhile: its record stands.
    .onConflict()
    .ignore();
}
