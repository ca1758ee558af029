import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { shippingComplete } from '../../../domain/forms/shipping-fields';
import {
  allowedStep,
  applyChoice,
  changeForm,
  choiceFromQuery,
  emptyForm,
  firstIncompleteStep,
  isStep,
  landingStep,
  parseForm,
  serialiseForm,
  STEPS,
  SUBSCRIPTION_FORM_KEY,
  type BuyerState,
  type Step,
  type SubscriptionForm,
} from '../../../domain/purchase/subscription-form';
import type { FlowCatalogue } from './order-preview';

function readStored(): SubscriptionForm | null {
  try {
    return parseForm(window.localStorage.getItem(SUBSCRIPTION_FORM_KEY));
  } catch {
    // Storage can be refused (private modes, a full quota): the flow still works for this visit.
    return null;
  }
}

function store(form: SubscriptionForm): void {
  try {
    window.localStorage.setItem(SUBSCRIPTION_FORM_KEY, serialiseForm(form));
  } catch {
    // As above: nothing to keep it in, nothing lost for this visit.
  }
}

/**
 * The flow's state and its step. The state lives in localStorage (restored after hydration,
 * saved on every change); the step lives in `?step=`, each step a history entry, so the browser's
 * back button walks the steps. A calculator choice in the address replaces the stored choice once,
 * then leaves the address.
 */
export function useSubscriptionFlow(catalogue: FlowCatalogue, buyer: BuyerState) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // The server cannot read the browser's storage: the first render (server and hydration alike)
  // shows the frame, and the state arrives in an effect.
  const [form, setForm] = useState<SubscriptionForm | null>(null);
  /** Where an arriving choice lands, once the state is there to check it against. */
  const landing = useRef<Step | null>(null);

  useEffect(() => {
    if (form) return;
    const stored = readStored() ?? emptyForm();
    const choice = choiceFromQuery(params, catalogue);
    if (choice.given) landing.current = landingStep(choice);
    setForm(applyChoice(stored, choice));
  }, [form, params, catalogue]);

  useEffect(() => {
    if (form) store(form);
  }, [form]);

  const asked = params.get('step');
  const frontier = form ? firstIncompleteStep(form, catalogue, shippingComplete, buyer) : 'industry';
  // Without `?step=`, a returning visitor continues where they left off, at the latest the summary.
  const wanted: Step = isStep(asked)
    ? asked
    : STEPS.indexOf(frontier) > STEPS.indexOf('summary')
      ? 'summary'
      : frontier;
  const step = form ? allowedStep(landing.current ?? wanted, frontier) : isStep(asked) ? asked : 'industry';

  /** The address last asked for, so a render before the navigation lands does not ask again (or otherwise). */
  const requested = useRef<string | null>(null);
  useEffect(() => {
    if (!form) return;
    if (landing.current && asked === landing.current && params.size === 1) landing.current = null;
    if (asked === step && params.size === 1) {
      requested.current = null;
      return;
    }
    // The choice leaves the address once taken into the state; a step that cannot be shown yet
    // (nothing chosen) goes to the first incomplete one. Neither is a step of its own in history.
    const target = `?step=${step}`;
    if (requested.current === target) return;
    requested.current = target;
    void navigate(target, { replace: true, preventScrollReset: true });
  }, [form, asked, step, params, navigate]);

  const update = useCallback((change: (form: SubscriptionForm) => SubscriptionForm) => {
    setForm((previous) => (previous ? changeForm(previous, change(previous)) : previous));
  }, []);

  const goTo = useCallback((next: Step) => void navigate(`?step=${next}`), [navigate]);

  return useMemo(() => ({ form, step, frontier, update, goTo }), [form, step, frontier, update, goTo]);
}
