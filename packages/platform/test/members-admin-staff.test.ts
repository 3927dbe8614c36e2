import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  as,
  createRole,
  newMember,
  OWNER_ENV,
  ownerToken,
  staffMember,
} from './staff-support.ts';
import { startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * Member administration is no back door around the staff calls (issue 21): the store's owner can
 * never be blocked, disconnected or deleted as a member, and an active staff member only once the
 * staff calls have suspended or removed them. Single calls answer an application error; bulk calls
 * answer a failure with the reason for those items and go on with the rest.
 */
const M = '/members/v1/members';

function expectRefused(answer: Answer, code: 'OWNER_IS_PERMANENT' | 'MEMBER_IS_ACTIVE_STAFF') {
  expect(answer.status, JSON.stringify(answer.body)).toBe(428);
  expect(answer.body.details.applicationError).toMatchObject({ code, description: expect.any(String) });
}

describe('member administration and the store staff', () => {
  let platform: TestPlatform;
  let owner: string;
  let ownerId: string;
  /** Holds members.manage: may administer members, but not take out the owner. */
  let support: { token: string; id: string; email: string; memberId: string };

  const memberIdOf = async (token: string) => (await as(platform, token).get(`${M}/my`)).body.member.id;
  const statusOf = async (memberId: string) =>
    (await as(platform, platform.adminApiKey).get(`${M}/${memberId}?fieldsets=FULL`)).body.member.status;

  beforeAll(async () => {
    platform = await startTestPlatform({ env: OWNER_ENV });
    owner = await ownerToken(platform);
    ownerId = await memberIdOf(owner);
    const role = await createRole(platform, owner, 'Support', ['members.read', 'members.manage']);
    const staff = await staffMember(platform, owner, role, 'support');
    support = { ...staff, memberId: await memberIdOf(staff.token) };
  }, 60_000);
  afterAll(async () => {
    await platform?.stop();
  });

  it('the owner is never blocked, disconnected or deleted through member administration, by anyone', async () => {
    for (const caller of [platform.adminApiKey, owner, support.token]) {
      for (const action of ['block', 'disconnect']) {
        expectRefused(await as(platform, caller).post(`${M}/${ownerId}/${action}`), 'OWNER_IS_PERMANENT');
      }
      expectRefused(await as(platform, caller).delete(`${M}/${ownerId}`), 'OWNER_IS_PERMANENT');
    }
    // nor by deleting their own member
    expectRefused(await as(platform, owner).delete(`${M}/my`), 'OWNER_IS_PERMANENT');
    expect(await statusOf(ownerId)).toBe('APPROVED');
    // and their sign-in goes on
    expect((await as(platform, owner).get('/api/cartwheel/staff')).status).toBe(200);
  });

  it('an active staff member is taken out through the staff calls first; then member administration may', async () => {
    const role = await createRole(platform, owner, 'Packing', ['orders.read']);
    const packer = await staffMember(platform, owner, role, 'packer');
    const packerId = await memberIdOf(packer.token);
    for (const action of ['block', 'disconnect']) {
      expectRefused(
        await as(platform, support.token).post(`${M}/${packerId}/${action}`),
        'MEMBER_IS_ACTIVE_STAFF',
      );
    }
    expectRefused(
      await as(platform, platform.adminApiKey).delete(`${M}/${packerId}`),
      'MEMBER_IS_ACTIVE_STAFF',
    );
    expect(await statusOf(packerId)).toBe('APPROVED');
    expect((await as(platform, packer.token).get('/api/cartwheel/staff/me')).status).toBe(200);

    const suspended = await as(platform, owner).post(`/api/cartwheel/staff/${packer.id}/suspend`);
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
    const blocked = await as(platform, support.token).post(`${M}/${packerId}/block`);
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
    expect(blocked.body.member.status).toBe('BLOCKED');
  });

  it('bulk delete by ids answers a failure with the reason for the owner and active staff, and deletes the rest', async () => {
    const plain = await memberIdOf(await newMember(platform, 'bulk-plain'));
    const answer = await as(platform, support.token).post(`${M}/bulk/delete`, {
      memberIds: [ownerId, plain, support.memberId],
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.bulkActionMetadata).toEqual({
      totalSuccesses: 1,
      totalFailures: 2,
      undetailedFailures: 0,
    });
    expect(
      answer.body.results.map((result: any) => [
        result.itemMetadata.id,
        result.itemMetadata.success,
        result.itemMetadata.error?.code,
      ]),
    ).toEqual([
      [ownerId, false, 'OWNER_IS_PERMANENT'],
      [plain, true, undefined],
      [support.memberId, false, 'MEMBER_IS_ACTIVE_STAFF'],
    ]);
    expect((await as(platform, platform.adminApiKey).get(`${M}/${plain}`)).status).toBe(404);
    expect(await statusOf(ownerId)).toBe('APPROVED');
    expect(await statusOf(support.memberId)).toBe('APPROVED');
  });

  it('block and delete by filter skip the owner and active staff, each a failure with its reason', async () => {
    const plain = await memberIdOf(await newMember(platform, 'filter-plain'));
    const plainEmail = (await as(platform, platform.adminApiKey).get(`${M}/${plain}?fieldsets=FULL`)).body
      .member.loginEmail;
    const filter = { loginEmail: { $in: [OWNER_ENV.CARTWHEEL_OWNER_EMAIL, support.email, plainEmail] } };
    const failuresOf = (job: any) =>
      Object.fromEntries(
        job.results.map((result: any) => [result.itemMetadata.id, result.itemMetadata.error.code]),
      );

    for (const slug of ['block-by-filter', 'delete-by-filter']) {
      const started = await as(platform, support.token).post(`${M}/bulk/${slug}`, { filter });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const job = await finished(started.body.jobId);
      expect(job.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 2, undetailedFailures: 0 });
      expect(failuresOf(job)).toEqual({
        [ownerId]: 'OWNER_IS_PERMANENT',
        [support.memberId]: 'MEMBER_IS_ACTIVE_STAFF',
      });
    }
    expect((await as(platform, platform.adminApiKey).get(`${M}/${plain}`)).status).toBe(404);
    expect(await statusOf(ownerId)).toBe('APPROVED');
    expect(await statusOf(support.memberId)).toBe('APPROVED');
    expect((await as(platform, support.token).get(`${M}/my`)).status).toBe(200);
  });

  async function finished(jobId: string) {
    for (let tries = 0; tries < 200; tries++) {
      const read = await as(platform, platform.adminApiKey).get(`${M}/jobs/${jobId}`);
      expect(read.status).toBe(200);
      if (read.body.job.status === 'FINISHED') return read.body.job;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`job ${jobId} never finished`);
  }
});
