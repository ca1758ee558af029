import type { appTemplates } from '../../../domain/entities/app-templates';
import type { modules } from '../../../domain/entities/modules';
import type { RecordOf } from '../../../domain/entities/types';
import type { I18nText } from '../../../domain/locales';

/**
 * What the public pages' loaders send of the catalogue: the fields their components read, not
 * whole records (decision 042). Loader data is inline in a page's HTML and in each client
 * navigation's answer, so a field no component reads costs every visitor its bytes.
 */

/** The fields of a plan template that a plan card reads, to `$select` with the populated modules. */
export const PLAN_SUMMARY_FIELDS = ['_id', 'name', 'description', 'type', 'monthPrice', 'currency', 'modules'] as const;

/** The fields of a module that its add-on row reads. */
export const ADD_ON_FIELDS = [
  '_id',
  'key',
  'name',
  'shortDesc',
  'counter',
  'monthPrice',
  'currency',
  'billing',
  'released',
] as const;

// The shapes of `PlanSummary` (components/site/plan-cards.tsx) and `AddOn` (add-ons.tsx), spelt
// here from the definitions: importing the components would make these pages seem to read their messages.
type AddOn = Pick<RecordOf<typeof modules>, (typeof ADD_ON_FIELDS)[number]>;
type IncludedModules = { id: string | { _id: string; name: I18nText }; count?: number }[];
type PlanSummary = Pick<
  RecordOf<typeof appTemplates>,
  '_id' | 'name' | 'description' | 'type' | 'monthPrice' | 'currency'
> & {
  modules: IncludedModules;
};

type PopulatedModules = { id: string | { _id: string; name: I18nText }; count?: number | null }[] | null | undefined;

/** A plan's included modules by name and count; one the visitor may not read is left out. */
export function includedModules(modules: PopulatedModules): IncludedModules {
  return (modules ?? []).flatMap((item) =>
    typeof item.id === 'string'
      ? []
      : [{ id: { _id: item.id._id, name: item.id.name }, ...(item.count ? { count: item.count } : {}) }],
  );
}

/** A plan as its card shows it. */
export function planSummary<P extends Omit<PlanSummary, 'modules'> & { modules?: PopulatedModules }>(
  plan: P,
): PlanSummary {
  return {
    _id: plan._id,
    name: plan.name,
    description: plan.description,
    type: plan.type,
    monthPrice: plan.monthPrice,
    currency: plan.currency,
    modules: includedModules(plan.modules),
  };
}

/** A module as an add-on row shows it. */
export function addOnSummary(module: AddOn): AddOn {
  return {
    _id: module._id,
    key: module.key,
    name: module.name,
    shortDesc: module.shortDesc,
    counter: module.counter,
    monthPrice: module.monthPrice,
    currency: module.currency,
    billing: module.billing,
    released: module.released,
  };
}
