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
  const restoredFrom = useRef<string | null>(null);

  useEffect(() => {
    if (form) return;
    const stored = readStored() ?? emptyForm();
    const choice = choiceFromQuery(params, catalogue);
    const next = applyChoice(stored, choice);
    setForm(next);
    if (choice.given) {
      restoredFrom.current = 'choice';
      void navigate(`?step=${landingStep(choice)}`, { replace: true, preventScrollReset: true });
    }
  }, [form, params, catalogue, navigate]);

  useEffect(() => {
    if (form) store(form);
  }, [form]);

  const asked = params.get('step');
  const frontier = form ? firstIncompleteStep(form, catalogue, shippingComplete, buyer) : 'industry';
  // Without `?step=`, a returning visitor continues where they left off, at the latest the summary.
  const wanted: Step = isStep(asked) ? asked : STEPS.indexOf(frontier) > STEPS.indexOf('summary') ? 'summary' : frontier;
  const step = form ? allowedStep(wanted, frontier) : isStep(asked) ? asked : 'industry';

  useEffect(() => {
    if (!form || restoredFrom.current === 'choice') {
      restoredFrom.current = null;
      return;
    }
    // A step that cannot be shown yet (nothing chosen) goes to the first incomplete one.
    if (asked !== step) void navigate(`?step=${step}`, { replace: true, preventScrollReset: true });
  }, [form, asked, step, navigate]);

  const update = useCallback((change: (form: SubscriptionForm) => SubscriptionForm) => {
    setForm((previous) => (previous ? changeForm(previous, change(previous)) : previous));
  }, []);

  const goTo = useCallback((next: Step) => void navigate(`?step=${next}`), [navigate]);

  return useMemo(() => ({ form, step, frontier, update, goTo }), [form, step, frontier, update, goTo]);
}
