import type { Knex } from 'knex';
import { definitions } from '../../../domain/entities/index.ts';
import type { I18nText } from '../../../domain/locales.ts';
import type { LookupList } from '../../../domain/entities/lookup-lists.ts';
import { newId } from '../ids.ts';

/**
 * The lookup lists as they first stand (decision 050), in production too: the apps' pickers read
 * them. Professions as Hong Kong's clinics name their specialties, the eighteen districts in the
 * Government's order, and the two genders; staff add, rename and reorder them afterwards.
 */
export const LOOKUP_LIST_SEED: Record<LookupList, readonly I18nText[]> = {
  doctorprofessions: [
    { en: 'General practitioner', 'zh-hk': '普通科', 'zh-cn': '全科' },
    { en: 'Family medicine', 'zh-hk': '家庭醫學', 'zh-cn': '家庭医学' },
    { en: 'Paediatrics', 'zh-hk': '兒科', 'zh-cn': '儿科' },
    { en: 'Obstetrics and gynaecology', 'zh-hk': '婦產科', 'zh-cn': '妇产科' },
    { en: 'Dermatology', 'zh-hk': '皮膚科', 'zh-cn': '皮肤科' },
    { en: 'Ophthalmology', 'zh-hk': '眼科', 'zh-cn': '眼科' },
    { en: 'Ear, nose and throat', 'zh-hk': '耳鼻喉科', 'zh-cn': '耳鼻喉科' },
    { en: 'Orthopaedics', 'zh-hk': '骨科', 'zh-cn': '骨科' },
    { en: 'Cardiology', 'zh-hk': '心臟科', 'zh-cn': '心脏科' },
    { en: 'Psychiatry', 'zh-hk': '精神科', 'zh-cn': '精神科' },
    { en: 'Dentistry', 'zh-hk': '牙科', 'zh-cn': '牙科' },
    { en: 'Chinese medicine', 'zh-hk': '中醫', 'zh-cn': '中医' },
    { en: 'Physiotherapy', 'zh-hk': '物理治療', 'zh-cn': '物理治疗' },
  ],
  doctordistricts: [
    { en: 'Central and Western', 'zh-hk': '中西區', 'zh-cn': '中西区' },
    { en: 'Wan Chai', 'zh-hk': '灣仔', 'zh-cn': '湾仔' },
    { en: 'Eastern', 'zh-hk': '東區', 'zh-cn': '东区' },
    { en: 'Southern', 'zh-hk': '南區', 'zh-cn': '南区' },
    { en: 'Yau Tsim Mong', 'zh-hk': '油尖旺', 'zh-cn': '油尖旺' },
    { en: 'Sham Shui Po', 'zh-hk': '深水埗', 'zh-cn': '深水埗' },
    { en: 'Kowloon City', 'zh-hk': '九龍城', 'zh-cn': '九龙城' },
    { en: 'Wong Tai Sin', 'zh-hk': '黃大仙', 'zh-cn': '黄大仙' },
    { en: 'Kwun Tong', 'zh-hk': '觀塘', 'zh-cn': '观塘' },
    { en: 'Tsuen Wan', 'zh-hk': '荃灣', 'zh-cn': '荃湾' },
    { en: 'Tuen Mun', 'zh-hk': '屯門', 'zh-cn': '屯门' },
    { en: 'Yuen Long', 'zh-hk': '元朗', 'zh-cn': '元朗' },
    { en: 'North', 'zh-hk': '北區', 'zh-cn': '北区' },
    { en: 'Tai Po', 'zh-hk': '大埔', 'zh-cn': '大埔' },
    { en: 'Sai Kung', 'zh-hk': '西貢', 'zh-cn': '西贡' },
    { en: 'Sha Tin', 'zh-hk': '沙田', 'zh-cn': '沙田' },
    { en: 'Kwai Tsing', 'zh-hk': '葵青', 'zh-cn': '葵青' },
    { en: 'Islands', 'zh-hk': '離島', 'zh-cn': '离岛' },
  ],
  doctorgenders: [
    { en: 'Male', 'zh-hk': '男', 'zh-cn': '男' },
    { en: 'Female', 'zh-hk': '女', 'zh-cn': '女' },
  ],
};

/** Fills each empty lookup list with its first names, in order (10, 20, … so staff can slot one between). */
export async function seedLookupLists(trx: Knex.Transaction): Promise<void> {
  for (const [list, names] of Object.entries(LOOKUP_LIST_SEED) as [LookupList, readonly I18nText[]][]) {
    const table = definitions[list].table;
    if (await trx(table).first('id')) continue;
    await trx(table).insert(
      names.map((name, index) => ({ id: newId(), name: JSON.stringify(name), display_order: (index + 1) * 10 })),
    );
  }
}
