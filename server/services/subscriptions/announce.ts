import { definitions } from '../../../domain/entities/index.ts';
import { hiddenFields, stripResult } from '../../hooks/clean-output.ts';
import type { ServerApp } from '../types.ts';

/** Tells the listeners (the owner, staff, other instances) of a change, as a patch through the service would. */
export async function announce(app: ServerApp, subscriptionId: string): Promise<void> {
  const subscriptions = app.service('subscriptions');
  subscriptions.emit(
    'patched',
    stripResult(await subscriptions.get(subscriptionId), hiddenFields(definitions.subscriptions)),
  );
}
