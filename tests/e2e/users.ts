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
} as const satisfies Record<string, DemoUser>;
