import type { Application } from '@feathersjs/feathers';

/** What time it is, as the services that count time in the database see it (a test sets its own). */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** The app's clock: `app.set('clock', () => date)` in a test moves it; otherwise the system's. */
export function clockOf(app: Application): Clock {
  const clock = app.get('clock') as Clock | undefined;
  return typeof clock === 'function' ? clock : systemClock;
}
