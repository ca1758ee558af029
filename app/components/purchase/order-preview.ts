import type { appTemplates } from '../../../domain/entities/app-templates';
import type { industries } from '../../../domain/entities/industries';
import type { modules } from '../../../domain/entities/modules';
import type { RecordOf } from '../../../domain/entities/types';
import type { I18nText } from '../../../domain/locales';
import { isCurrency, type CurrencyCode } from '../../../domain/money';
import { offeredToIndustry } from '../../../domain/billing/offered';
import { convert, quote, type Billing, type Quote } from '../../../domain/pricing';
import type { SubscriptionForm } from '../../../domain/purchase/subscription-form';
import type { AddOn } from '../site/add-ons';

/** An industry the flow offers. */
export type FlowIndustry = Pick<RecordOf<typeof industries>, '_id' | 'key' | 'name' | 'description'>;

/** A plan template as the flow shows it: its industry by id, its included modules by name. */
export type FlowPlan = Pick<
  RecordOf<typeof appTemplates>,
  '_id' | 'key' | 'name' | 'description' | 'type' | 'monthPrice' | 'currency' | 'contractMonths' | 'industry'
> & {
  included: (Pick<RecordOf<typeof modules>, 'name'> & { id: string; count: number })[];
};

/** What the flow's loader hands the page: the catalogue the choice is made from. */
export interface FlowCatalogue {
  industries: FlowIndustry[];
  plans: FlowPlan[];
  /** Released add-on modules; a plan's own modules are left out where it is chosen. */
  /** Released modules, with the industries each is sold to (none: every industry). */
  addOns: (AddOn & { industries?: readonly string[] })[];
}

/** One line of the order as the summary lists it, in the order's currency. */
export interface PreviewLine {
  key: string;
  kind: 'plan' | 'addon';
  /** The plan's or the module's id. */
  id: string;
  name: I18nText;
  billing: Billing;
  counter: boolean;
  unitPrice: number;
  count: number;
  amount: number;
}

export interface OrderPreview {
  plan: FlowPlan;
  lines: PreviewLine[];
  quote: Quote;
}

/** The add-ons a plan can take: released modules it does not already include. */
export function addOnsFor(catalogue: FlowCatalogue, plan: FlowPlan | undefined): AddOn[] {
  const included = new Set(plan?.included.map((item) => item.id));
  return catalogue.addOns.filter(
    (module) => module.released && !included.has(module._id) && (!plan || offeredToIndustry(module, plan.industry)),
  );
}

/**
 * Prices the choice with the calculator's `quote()`, as the page shows it; the server prices the
 * order again. Null while no buyable plan is chosen.
 */
export function previewOrder(
  form: SubscriptionForm,
  catalogue: FlowCatalogue,
  currency: CurrencyCode,
): OrderPreview | null {
  const plan = catalogue.plans.find((candidate) => candidate._id === form.planInfo.planId);
  if (!plan || plan.type === 'enterprise' || !isCurrency(plan.currency)) return null;
  const planCurrency = plan.currency;
  const offered = addOnsFor(catalogue, plan);
  const chosen = form.planInfo.addOns.flatMap((choice) => {
    const module = offered.find((candidate) => candidate._id === choice.id);
    return module && isCurrency(module.currency)
      ? [
          {
            module,
            count: module.counter ? choice.count : 1,
            price: convert(module.monthPrice, module.currency, planCurrency),
          },
        ]
      : [];
  });
  const result = quote(
    {
      monthPrice: plan.monthPrice,
      currency: planCurrency,
      type: plan.type,
      prepaidMonths: form.planInfo.prepaidMonths,
      addOns: chosen.map(({ module, count, price }) => ({
        price,
        billing: module.billing,
        counter: module.counter,
        count,
      })),
    },
    currency,
  );
  const planPrice = convert(plan.monthPrice, planCurrency, currency);
  const lines: PreviewLine[] = [
    {
      key: `plan:${plan._id}`,
      kind: 'plan',
      id: plan._id,
      name: plan.name,
      billing: 'monthly',
      counter: false,
      unitPrice: planPrice,
      count: 1,
      amount: planPrice,
    },
    ...chosen.map(({ module, count, price }) => {
      const unitPrice = convert(price, planCurrency, currency);
      return {
        key: `addon:${module._id}`,
        kind: 'addon' as const,
        id: module._id,
        name: module.name,
        billing: module.billing,
        counter: module.counter,
        unitPrice,
        count,
        amount: unitPrice * count,
      };
    }),
  ];
  return { plan, lines, quote: result };
}
