/** The demo accounts the seed creates (README, "Demo accounts"). */
export interface DemoUser {
  email: string;
  password: string;
  name: string;
}

export const users = {
  owner: { email: 'owner@tillpoint.test', password: 'Owner12345', name: 'Mei Chan' },
  editor: { email: 'editor@tillpoint.test', password: 'Editor12345', name: 'Kelvin Lau' },
  admin: { email: 'admin@tillpoint.test', password: 'Admin12345', name: 'Administrator' },
  /** Bought a Lite plan 40 days before the seed day (server/db/seed/demo-subscriptions.ts). */
  monthly: { email: 'monthly@tillpoint.test', password: 'Monthly12345', name: 'Wing Lee' },
  /** Bought a Flexi plan, 24 months ahead, 220 days before the seed day. */
  prepaid: { email: 'prepaid@tillpoint.test', password: 'Prepaid12345', name: 'Ivy Ho' },
} as const satisfies Record<string, DemoUser>;
