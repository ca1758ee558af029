/**
 * Where the main button of a priced plan leads (spec "Pricing calculator"): to the subscription
 * flow while subscriptions are on and the plan has a list price; else to the enquiry form while
 * the contact form is on; else to the chat. The calculator and the plan page both ask this.
 */
export type PlanActionKind = 'subscribe' | 'enquire' | 'chat';

export interface PlanAction {
  kind: PlanActionKind;
  href: string;
  /** The chat is another site: it opens in a new tab. */
  external: boolean;
}

/** The site's feature flags that decide it. */
export interface PlanActionFlags {
  subscription: boolean;
  contactForm: boolean;
}

/** The plan on show, or null when the industry has none. */
export interface PlanActionPlan {
  type: string;
  key?: string | null;
}

/** The three destinations, already in the visitor's language. */
export interface PlanActionTargets {
  /** `/{locale}/subscription` */
  subscription: string;
  /** `/{locale}/enquiryForm` */
  enquiry: string;
  /** The chat link (`CHAT_URL`). */
  chat: string;
}

/** `subscribe`, `enquire` or `chat`: enterprise plans (Flexi+) are negotiated, so never bought outright. */
export function planActionKind(flags: PlanActionFlags, plan: PlanActionPlan | null): PlanActionKind {
  if (flags.subscription && plan && plan.type !== 'enterprise') return 'subscribe';
  if (flags.contactForm) return 'enquire';
  return 'chat';
}

/**
 * The button's destination. `query` is what the subscription flow starts from (the calculator's
 * choice, or the plan's industry and key); the enquiry form preselects the plan by its key.
 */
export function planAction(
  flags: PlanActionFlags,
  plan: PlanActionPlan | null,
  targets: PlanActionTargets,
  query = '',
): PlanAction {
  const kind = planActionKind(flags, plan);
  if (kind === 'subscribe')
    return { kind, href: query ? `${targets.subscription}?${query}` : targets.subscription, external: false };
  if (kind === 'enquire') {
    const plain = plan?.key ? `?${new URLSearchParams({ plan: plan.key })}` : '';
    return { kind, href: `${targets.enquiry}${plain}`, external: false };
  }
  return { kind, href: targets.chat, external: true };
}
