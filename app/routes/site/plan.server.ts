import { ADD_ON_FIELDS, addOnSummary } from './summaries.server';
import type { appTemplates } from '../../../domain/entities/app-templates';
import type { PopulatedOf } from '../../../domain/entities/services';
import { idSchema } from '../../../domain/entities/types';
import type { AddOn } from '../../components/site/add-ons';
import type { ServerContext } from '../../context';

type Caller = Pick<ServerContext, 'api' | 'user'>;

/**
 * A plan template with its industry and included modules populated. An industry or module the
 * visitor may not read stays an id: the page then names no industry, or leaves the module out.
 */
export type PlanDetail = PopulatedOf<typeof appTemplates, 'industry' | 'modules.id'>;

/**
 * What the plan page renders of its plan, for its loader's answer: the template's own fields but
 * its timestamps and home-page flag, its industry's id, key and name, and each included module's
 * id, name and short description (not the descriptions, industries and billing the page never shows).
 */
export function planForPage(plan: PlanDetail) {
  const { createdAt: _created, updatedAt: _updated, showOnHome: _home, industry, modules, ...own } = plan;
  return {
    ...own,
    industry:
      typeof industry === 'object' && industry !== null
        ? { _id: industry._id, key: industry.key, name: industry.name }
        : industry,
    modules: modules.map(({ id, count }) => ({
      count,
      id: typeof id === 'string' ? id : { _id: id._id, name: id.name, shortDesc: id.shortDesc },
    })),
  };
}
export type PlanPage = ReturnType<typeof planForPage>;

/** Refusals that mean "no such plan for this caller": unknown, malformed or not public. */
const MISSING = new Set([400, 401, 403, 404]);

/** The plan template a visitor may see, or null (the page is then a 404). */
export async function findPlan(caller: Caller, id: string | undefined): Promise<PlanDetail | null> {
  const valid = idSchema.safeParse(id);
  if (!valid.success) return null;
  try {
    return await caller.api.service('appTemplates').get(valid.data, {
      provider: 'ssr',
      user: caller.user,
      query: { $populate: ['industry', 'modules.id'] },
    });
  } catch (error) {
    if (MISSING.has((error as { code?: number }).code ?? 0)) return null;
    throw error;
  }
}

/** The add-ons a visitor can put on top of the plan: released modules it does not already include. */
export async function addOnsFor(caller: Caller, plan: PlanDetail): Promise<AddOn[]> {
  const catalogue = await caller.api.service('modules').find({
    provider: 'ssr',
    user: caller.user,
    query: { released: true, $sort: { order: 1 }, $limit: 50, $select: [...ADD_ON_FIELDS] },
  });
  const included = new Set(plan.modules.map((item) => (typeof item.id === 'string' ? item.id : item.id._id)));
  return catalogue.data.filter((module) => !included.has(module._id)).map(addOnSummary);
}

/**
 * Where `/{locale}/plan/{id}` sends a member when the id is one of their subscriptions, not a plan
 * template (the spec's "plan detail for owners", decision 044): their plan's page in the portal.
 * A visitor who is not signed in is sent to sign in, the address kept, and comes back here; any
 * other caller (another member, staff, an id that is no subscription) gets null: the page's 404.
 * These answers are redirects or 404s, never a page the cache stores (it keeps 200s only), and a
 * signed-in request never reaches the cache at all.
 */
export async function ownerPlanAddress(
  caller: Caller,
  id: string | undefined,
  locale: string,
): Promise<'signIn' | string | null> {
  const valid = idSchema.safeParse(id);
  if (!valid.success) return null;
  // An internal read: whose it is decides, and only the owner learns more than a 404.
  const found = (
    await caller.api.service('subscriptions').find({ query: { _id: valid.data, $select: ['_id', 'user'], $limit: 1 } })
  ).data[0];
  if (!found) return null;
  if (!caller.user) return 'signIn';
  return found.user === caller.user._id ? `/${locale}/portal/plan/${encodeURIComponent(found._id)}` : null;
}
