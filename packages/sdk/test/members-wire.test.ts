import { describe, expect, it } from 'vitest';
import { HOSTED_API_HOST, MEMBERS, members, toPublicPath } from '../src/index.ts';
import {
  ADMIN_KEY,
  adminClient,
  type CallRow,
  expectRowsCover,
  expectWireCall,
  startWireServer,
  tracing,
  type WireCall,
} from './support/wire-calls.ts';

/**
 * Each members call against a loopback server that records what arrives. Expectations are the wire
 * contract's "Calls" list, written out by hand; ids in the path are repeated in the body or query.
 */

const MEMBER = {
  id: 'm1',
  loginEmail: 'ada@example.com',
  profile: { nickname: 'Ada', slug: 'ada' },
  createdDate: '2024-05-01T10:00:00.000Z',
  updatedDate: '2024-05-02T10:00:00.000Z',
  lastLoginDate: '2024-05-03T10:00:00.000Z',
};

const server = await startWireServer(() => ({ body: { member: MEMBER } }));
const client = adminClient(server, { members });
const ADMIN = { authorization: ADMIN_KEY, trace: tracing('cartwheel.members.v1.Members', 'member') };

const calls: CallRow<typeof client, WireCall>[] = [
  [
    'getCurrentMember',
    (c) => c.members.getCurrentMember({ fieldsets: ['FULL'] }),
    { method: 'GET', path: '/members/v1/members/my', query: { fieldsets: 'FULL' } },
  ],
  [
    'updateCurrentMemberSlug',
    (c) => c.members.updateCurrentMemberSlug('ada-l'),
    { method: 'POST', path: '/members/v1/members/my/slug', body: { slug: 'ada-l' } },
  ],
  [
    'updateMemberSlug',
    (c) => c.members.updateMemberSlug('m1', 'ada-l'),
    { method: 'POST', path: '/members/v1/members/m1/slug', body: { id: 'm1', slug: 'ada-l' } },
  ],
  [
    'joinCommunity',
    (c) => c.members.joinCommunity(),
    { method: 'POST', path: '/members/v1/members/join-community', body: {} },
  ],
  [
    'leaveCommunity',
    (c) => c.members.leaveCommunity(),
    { method: 'POST', path: '/members/v1/members/leave-community', body: {} },
  ],
  [
    'getMember',
    (c) => c.members.getMember('m1', { fieldsets: ['PUBLIC'] }),
    { method: 'GET', path: '/members/v1/members/m1', query: { id: 'm1', fieldsets: 'PUBLIC' } },
  ],
  [
    'listMembers',
    (c) =>
      c.members.listMembers({
        paging: { limit: 20, offset: 40 },
        fieldsets: ['EXTENDED'],
        sorting: [{ fieldName: 'createdDate', order: 'DESC' }],
      }),
    {
      method: 'GET',
      path: '/members/v1/members',
      r: {
        paging: { limit: 20, offset: 40 },
        fieldsets: ['EXTENDED'],
        sorting: [{ fieldName: 'createdDate', order: 'DESC' }],
      },
    },
  ],
  [
    'queryMembers',
    (c) =>
      c.members.queryMembers(
        { filter: { status: 'APPROVED' }, paging: { limit: 5, offset: 0 } },
        { search: { expression: 'ada' } },
      ),
    {
      method: 'POST',
      path: '/members/v1/members/query',
      body: {
        query: { filter: { status: 'APPROVED' }, paging: { limit: 5, offset: 0 } },
        search: { expression: 'ada' },
      },
    },
  ],
  ['muteMember', (c) => c.members.muteMember('m1'), post('/members/v1/members/m1/mute', { id: 'm1' })],
  ['unmuteMember', (c) => c.members.unmuteMember('m1'), post('/members/v1/members/m1/unmute', { id: 'm1' })],
  [
    'approveMember',
    (c) => c.members.approveMember('m1'),
    post('/members/v1/members/m1/approve', { id: 'm1' }),
  ],
  ['blockMember', (c) => c.members.blockMember('m1'), post('/members/v1/members/m1/block', { id: 'm1' })],
  [
    'disconnectMember',
    (c) => c.members.disconnectMember('m1'),
    post('/members/v1/members/m1/disconnect', { id: 'm1' }),
  ],
  [
    'deleteMember',
    (c) => c.members.deleteMember('m1'),
    { method: 'DELETE', path: '/members/v1/members/m1', query: { id: 'm1' } },
  ],
  [
    'deleteMyMember',
    (c) => c.members.deleteMyMember({ contentAssigneeId: 'm2' }),
    { method: 'DELETE', path: '/members/v1/members/my', query: { contentAssigneeId: 'm2' } },
  ],
  [
    'bulkDeleteMembers',
    (c) => c.members.bulkDeleteMembers(['m1', 'm2']),
    post('/members/v1/members/bulk/delete', { memberIds: ['m1', 'm2'] }),
  ],
  [
    'bulkDeleteMembersByFilter',
    (c) => c.members.bulkDeleteMembersByFilter({ status: 'BLOCKED' }, { contentAssigneeId: 'm2' }),
    post('/members/v1/members/bulk/delete-by-filter', {
      filter: { status: 'BLOCKED' },
      contentAssigneeId: 'm2',
    }),
  ],
  [
    'bulkApproveMembers',
    (c) => c.members.bulkApproveMembers({ status: 'PENDING' }),
    post('/members/v1/members/bulk/approve-by-filter', { filter: { status: 'PENDING' } }),
  ],
  [
    'bulkBlockMembers',
    (c) => c.members.bulkBlockMembers({ status: 'PENDING' }),
    post('/members/v1/members/bulk/block-by-filter', { filter: { status: 'PENDING' } }),
  ],
  [
    'getBulkMembersJob',
    (c) => c.members.getBulkMembersJob('job1'),
    { method: 'GET', path: '/members/v1/members/jobs/job1' },
  ],
  [
    'createMember',
    (c) =>
      c.members.createMember({ member: { loginEmail: 'ada@example.com', profile: { nickname: 'Ada' } } }),
    post('/members/v1/members', { member: { loginEmail: 'ada@example.com', profile: { nickname: 'Ada' } } }),
  ],
  [
    'updateMember',
    (c) => c.members.updateMember('m1', { profile: { nickname: 'Countess' } }),
    {
      method: 'PATCH',
      path: '/members/v1/members/m1',
      body: { member: { id: 'm1', profile: { nickname: 'Countess' } } },
    },
  ],
  [
    'deleteMemberPhones',
    (c) => c.members.deleteMemberPhones('m1'),
    { method: 'DELETE', path: '/members/v1/members/m1/phones', query: { id: 'm1' } },
  ],
  [
    'deleteMemberEmails',
    (c) => c.members.deleteMemberEmails('m1'),
    { method: 'DELETE', path: '/members/v1/members/m1/emails', query: { id: 'm1' } },
  ],
  [
    'deleteMemberAddresses',
    (c) => c.members.deleteMemberAddresses('m1'),
    { method: 'DELETE', path: '/members/v1/members/m1/addresses', query: { id: 'm1' } },
  ],
];

function post(path: string, body: unknown): WireCall {
  return { method: 'POST', path, body };
}

describe('members calls on the wire (wire contract, Calls)', () => {
  it.each(calls)('members.%s sends the request the wire contract lists', async (_name, call, expected) => {
    await call(client);
    expectWireCall(server.requests, expected, ADMIN);
  });

  it('covers every method of the members module', () => {
    expectRowsCover(calls, Object.keys(members));
  });

  it('maps /v1/members to /members/v1/members on the hosted API host and on any other host', () => {
    expect(toPublicPath(MEMBERS, HOSTED_API_HOST, '/v1/members/my')).toBe('/members/v1/members/my');
    expect(toPublicPath(MEMBERS, 'localhost:4000', '/v1/members/m1/mute')).toBe(
      '/members/v1/members/m1/mute',
    );
  });

  it('escapes an id so it stays one path segment', async () => {
    await client.members.getMember('a/b');
    expect(server.requests[0]?.path).toBe('/members/v1/members/a%2Fb');
  });

  it('returns the member unwrapped, with its dates as Dates', async () => {
    const member = await client.members.getCurrentMember();
    expect(member.id).toBe('m1');
    expect(member.profile?.slug).toBe('ada');
    expect(member.createdDate).toEqual(new Date('2024-05-01T10:00:00.000Z'));
    expect(member.lastLoginDate).toEqual(new Date('2024-05-03T10:00:00.000Z'));
  });

  it('returns a list as an offset page, with hasNext computed from metadata.total', async () => {
    server.respond = () => ({
      body: { members: [MEMBER], metadata: { count: 1, offset: 40, total: 142, tooManyToCount: false } },
    });
    const page = await client.members.listMembers({ paging: { limit: 1, offset: 40 } });
    expect(page.items.map((member) => member.id)).toEqual(['m1']);
    expect(page.items[0]?.updatedDate).toEqual(new Date('2024-05-02T10:00:00.000Z'));
    expect(page.totalCount).toBe(142);
    expect(page.hasNext).toBe(true);
  });

  it('returns the bulk results and the job id of a bulk call by filter', async () => {
    server.respond = () => ({
      body: {
        results: [{ itemMetadata: { id: 'm1', originalIndex: 0, success: true } }],
        bulkActionMetadata: { totalSuccesses: 1, totalFailures: 0, undetailedFailures: 0 },
      },
    });
    const deleted = await client.members.bulkDeleteMembers(['m1']);
    expect(deleted.bulkActionMetadata?.totalSuccesses).toBe(1);
    server.respond = () => ({ body: { jobId: 'job-1' } });
    expect((await client.members.bulkApproveMembers({})).jobId).toBe('job-1');
  });

  it('raises a refused slug as the application error the platform sent', async () => {
    server.respond = () => ({
      status: 409,
      body: {
        message: 'another member has the slug ada',
        details: { applicationError: { code: 'SLUG_ALREADY_EXISTS', description: 'taken' } },
      },
    });
    await expect(client.members.updateCurrentMemberSlug('ada')).rejects.toMatchObject({
      status: 409,
      code: 'SLUG_ALREADY_EXISTS',
    });
  });
});
