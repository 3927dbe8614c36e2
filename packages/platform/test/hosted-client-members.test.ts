import { members } from '@wix/members';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_SETTINGS } from '../src/identity/service.ts';
import { routeHostedApiTo } from './hosted-client-route.ts';
import { register, uniqueEmail, visitorToken } from './identity-client.ts';
import { DIALECTS, startTestPlatform, type TestPlatform } from './support/platform.ts';

/**
 * The hosted platform's own `members` module, unchanged but for the host it reaches, as a merchant's
 * app holding the admin API key administers Cartwheel's members: lists, queries, approves, blocks,
 * mutes and deletes them.
 */
describe.each(DIALECTS)("the hosted platform's own members client, as a merchant app, on %s", (dialect) => {
  let platform: TestPlatform;
  let removeRoute: () => Promise<void>;
  let merchant: ReturnType<typeof merchantClient>;
  const tag = `hosted${Date.now().toString(36)}${dialect}`;
  const ids: Record<string, string> = {};
  const merchantClient = (apiKey: string) =>
    createClient({ modules: { members }, auth: ApiKeyStrategy({ apiKey, siteId: 'cartwheel-test-site' }) });

  beforeAll(async () => {
    platform = await startTestPlatform({ dialect });
    removeRoute = await routeHostedApiTo(platform.url);
    const visitor = await visitorToken(platform);
    await platform.services.settings.set(IDENTITY_SETTINGS.requireOwnerApproval, 'true');
    for (const name of ['ada', 'bea', 'cyd']) {
      const registered = await register(
        platform,
        visitor,
        uniqueEmail(`${tag}-${name}`),
        'correct horse battery',
        {
          profile: { firstName: name, lastName: tag, nickname: `${tag}-${name}` },
        },
      );
      ids[name] = registered.body.identity.id;
    }
    await platform.services.settings.set(IDENTITY_SETTINGS.requireOwnerApproval, 'false');
    merchant = merchantClient(platform.adminApiKey);
  });
  afterAll(async () => {
    await removeRoute?.();
    await platform?.stop();
  });

  it('lists and queries members with the FULL fieldset, in pages', async () => {
    const listed: any = await merchant.members.listMembers({
      paging: { limit: 2, offset: 0 },
      fieldsets: ['FULL'],
      sorting: [{ fieldName: 'createdDate', order: 'DESC' }],
    } as any);
    expect(listed.members).toHaveLength(2);
    expect(listed.members[0]._id).toBe(ids.cyd);
    expect(listed.members[0]._createdDate).toBeInstanceOf(Date);
    expect(listed.members[0].loginEmail).toEqual(expect.any(String));

    // the builder form (the typings name the typed-query overload only)
    const queryMembers = merchant.members.queryMembers as (options: unknown) => any;
    const found: any = await queryMembers({ fieldsets: ['FULL'] })
      .eq('contact.lastName', tag)
      .ascending('profile.nickname')
      .limit(2)
      .find();
    expect(found.items.map((member: any) => member.profile.nickname)).toEqual([`${tag}-ada`, `${tag}-bea`]);
    expect(found.totalCount).toBe(3);
    expect(found.items[0].status).toBe('PENDING');
  });

  it('approves, blocks, mutes and deletes members', async () => {
    const approved: any = await merchant.members.approveMember(ids.ada!);
    expect(approved.member ?? approved).toMatchObject({ _id: ids.ada, status: 'APPROVED' });

    const blocked: any = await merchant.members.blockMember(ids.bea!);
    expect((blocked.member ?? blocked).status).toBe('BLOCKED');

    const muted: any = await merchant.members.muteMember(ids.ada!);
    expect((muted.member ?? muted).activityStatus).toBe('MUTED');

    // an illegal transition reaches the hosted client as an application error with its code
    await expect(merchant.members.approveMember(ids.ada!)).rejects.toMatchObject({
      details: { applicationError: { code: 'MEMBER_STATUS_TRANSITION_NOT_ALLOWED' } },
    });

    await merchant.members.deleteMember(ids.cyd!);
    const left: any = await (merchant.members.queryMembers as (options: unknown) => any)({
      fieldsets: ['FULL'],
    })
      .eq('contact.lastName', tag)
      .find();
    expect(
      left.items.map((member: any) => [member.profile.nickname, member.status, member.activityStatus]).sort(),
    ).toEqual([
      [`${tag}-ada`, 'APPROVED', 'MUTED'],
      [`${tag}-bea`, 'BLOCKED', 'ACTIVE'],
    ]);

    const bulk: any = await merchant.members.bulkDeleteMembers([ids.bea!, 'no-such-member']);
    expect(bulk.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 1 });
    const job: any = await merchant.members.bulkApproveMembers({ 'contact.lastName': tag });
    expect(job.jobId).toEqual(expect.any(String));
  });
});
