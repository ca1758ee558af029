import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';
import { users, type DemoUser } from './users.ts';

/** Signs a staff member (the demo admin unless told) in through the API; answers the bearer header. */
export async function staffHeaders(
  request: APIRequestContext,
  user: DemoUser = users.admin,
): Promise<{ authorization: string }> {
  const login = await request.post('/api/authentication', {
    data: { strategy: 'local', email: user.email, password: user.password },
  });
  expect(login.status(), await login.text()).toBe(201);
  const { accessToken } = (await login.json()) as { accessToken: string };
  return { authorization: `Bearer ${accessToken}` };
}

/** Reads a service through the API as the demo admin (`path` after `/api/`, with its query). */
export async function asAdmin(
  request: APIRequestContext,
  path: string,
): Promise<{ data: Record<string, unknown>[]; total?: number }> {
  const response = await request.get(`/api/${path}`, { headers: await staffHeaders(request) });
  expect(response.status(), await response.text()).toBe(200);
  return response.json();
}
