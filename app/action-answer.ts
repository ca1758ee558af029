import { useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * A page's last action answer, kept while the page stays where the action left it.
 *
 * React Router forgets `actionData` at the next read of the page's data that is not the action's
 * own: a live change announced by the socket, or the socket coming back, reads the page again and
 * the answer ("The name has been saved.", a field's error) would vanish a moment after it showed
 * (the action's own change is often what the socket announces). The answer is kept until the page
 * is left or a new answer comes.
 */
export function useActionAnswer<T>(actionData: T | undefined): T | undefined {
  const { key } = useLocation();
  const kept = useRef<{ key: string; answer: T } | null>(null);
  if (actionData !== undefined) kept.current = { key, answer: actionData };
  else if (kept.current && kept.current.key !== key) kept.current = null;
  return actionData ?? kept.current?.answer;
}
