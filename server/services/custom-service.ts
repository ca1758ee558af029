import type { HookContext, HookOptions, NextFunction } from '@feathersjs/feathers';
import { authorize } from '../hooks/authorize.ts';
import type { ServiceDescription } from '../openapi/registry.ts';
import type { ServerApp, ServerServices } from './types.ts';

/** A hook around a service's calls that reads only the call (method, params), whatever the service. */
type AroundHook = (context: HookContext, next: NextFunction) => Promise<void>;

/**
 * Registers a service that has no definition as they all are: at its path, with the methods it
 * offers and no custom events, its description's access rule (`authorize`, the rule the reference
 * shows; decision 058) first around every method, then the service's own `around` hooks in order.
 * The service's entry in `ServerServices` stays beside its class (decision 047).
 */
export function useCustomService<L extends keyof ServerServices & string>(
  app: ServerApp,
  path: L,
  service: ServerServices[L],
  description: ServiceDescription,
  options: { methods: readonly (keyof ServerServices[L] & string)[]; around?: readonly AroundHook[] },
): void {
  app.use(path, service, { methods: options.methods, events: [] });
  const all = [authorize(description), ...(options.around ?? [])];
  // The hooks take any service's context; the compiler cannot match that to a service named by L.
  app.service(path).hooks({ around: { all } } as unknown as HookOptions<ServerApp, ServerServices[L]>);
}
