/** Whether a module is sold to subscriptions of an industry (no list: to every industry). */
export function offeredToIndustry(module: { industries?: readonly string[] | null }, industry: string): boolean {
  return !module.industries?.length || module.industries.includes(industry);
}
