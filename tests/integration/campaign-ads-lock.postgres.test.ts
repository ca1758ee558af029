import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/server.ts';
import { accessTokenOf, createAccount, restCall, skipReason, startTestServer } from './harness.ts';

/**
 * A campaign written while one of its ads is being removed (decision 061): the write holds the ads
 * it names until it commits, so it waits for a removal under way and then refuses the ad gone,
 * rather than naming an ad that no longer exists. Two sessions at once: PostgreSQL only (PGlite
 * runs one at a time).
 */

describe.skipIf(skipReason)('a campaign naming an ad removed meanwhile', () => {
  let server: RunningServer;
  let editor: string;
  afterAll(async () => {
    await server?.close();
  });
  beforeAll(async () => {
    server = await startTestServer({ trustProxy: 'loopback' });
    const account = await createAccount(server.database.knex, { role: 'editor', label: 'refs-lock' });
    editor = await accessTokenOf(server.url, account, '10.61.9.1');
  });

  it('waits for the removal to commit, then refuses the ad', async () => {
    const created = await restCall(server.url, 'POST', 'ads', {
      token: editor,
      address: '10.61.9.2',
      body: { name: { en: 'Removed meanwhile' }, adType: 'list', status: 'draft' },
    });
    const ad = created.body._id as string;
    const knex = server.database.knex;
    const removal = await knex.transaction();
    try {
      await removal('ads').where({ id: ad }).delete();
      let settled = false;
      const campaign = restCall(server.url, 'POST', 'campaigns', {
        token: editor,
        address: '10.61.9.3',
        body: { name: { en: 'Held' }, key: `refs-held-${Date.now().toString(36)}`, ads: [ad] },
      }).finally(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Still waiting on the removal's lock of the ad's row.
      expect(settled).toBe(false);
      await removal.commit();
      const answer = await campaign;
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual({ ads: 'One or more of the chosen records do not exist.' });
    } finally {
      if (!removal.isCompleted()) await removal.rollback();
    }
  });
});
