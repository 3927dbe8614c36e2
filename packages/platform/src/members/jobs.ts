import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';
import { applicationError, invalidArgument, notFound, violation } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { Workers } from '../workers/runtime.ts';
import { bulkItem } from './bulk.ts';
import type { MemberJobAction, MemberJobRow } from './tables.ts';

/** Members one batch handles: each is its own short transaction; the batch's read is one indexed page. */
export const JOB_BATCH = 100;
/** How long a process holds a job between batches; past it, another process may take the job over. */
const LEASE_MS = 30_000;
/** The failures a job keeps with their reasons; later ones are only counted (`undetailedFailures`). */
const FAILURES_KEPT = 100;

/** A bulk job as `GET /members/v1/members/jobs/{id}` answers it. */
export interface MemberJob {
  id: string;
  action: MemberJobAction;
  status: 'RUNNING' | 'FINISHED';
  createdDate: Date;
  updatedDate: Date;
  finishedDate?: Date;
  bulkActionMetadata: { totalSuccesses: number; totalFailures: number; undetailedFailures: number };
  results: Array<{
    itemMetadata: { id: string; success: false; error: { code: string; description: string } };
  }>;
}

/**
 * What a job asks of the members it works on: the members service's own calls (members/service.ts),
 * declared here so the service that runs the jobs and the jobs do not import each other.
 */
export interface JobMembers {
  checkFilter(filter: unknown, search: unknown): void;
  document(memberId: string): Promise<object | undefined>;
  /** The ids a filter and search match, after `after`, in id order. */
  idsMatching(filter: unknown, search: unknown, after: string | null, limit: number): Promise<string[]>;
  delete(memberId: string, contentAssigneeId?: unknown): Promise<void>;
  approve(memberId: string): Promise<unknown>;
  block(memberId: string): Promise<unknown>;
}

/**
 * Bulk calls by filter (`bulk/delete-by-filter`, `approve-by-filter`, `block-by-filter`) run as jobs:
 * the call stores the job and answers its id; the process works it in batches of members in id order,
 * each member its own transaction, and writes its progress (cursor, counts, first failures) after each
 * batch. No transaction spans more than one member, so a filter matching 100,000 members never holds
 * the database. A job whose process stopped is taken over when its lease runs out (`resume`).
 */
export class MemberJobs {
  private readonly running = new Map<string, Promise<void>>();
  private closed = false;
  private readonly owner = newId();

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly members: JobMembers,
  ) {}

  /** Checks the filter, stores the job and starts it; answers the job's id. */
  async start(
    action: MemberJobAction,
    input: { filter?: unknown; search?: unknown; contentAssigneeId?: unknown },
    requestedBy: string | null,
  ): Promise<string> {
    this.members.checkFilter(input.filter, input.search);
    let assignee: string | null = null;
    if (
      action === 'DELETE' &&
      typeof input.contentAssigneeId === 'string' &&
      input.contentAssigneeId !== ''
    ) {
      assignee = input.contentAssigneeId;
      if (!(await this.members.document(assignee)))
        throw invalidArgument([
          violation('contentAssigneeId', `names no member (${assignee})`, 'VALIDATION'),
        ]);
    }
    const now = new Date().toISOString();
    const id = newId();
    await this.db
      .insertInto('member_jobs')
      .values({
        id,
        action,
        status: 'RUNNING',
        filter: JSON.stringify(input.filter),
        search: input.search === undefined || input.search === null ? null : JSON.stringify(input.search),
        content_assignee_id: assignee,
        requested_by: requestedBy,
        cursor: null,
        succeeded: 0,
        failed: 0,
        failures: '[]',
        lease_until: new Date(Date.now() + LEASE_MS).toISOString(),
        lease_owner: this.owner,
        created_at: now,
        updated_at: now,
        finished_at: null,
      })
      .execute();
    this.spawn(id);
    return id;
  }

  /** The job's progress: how many members succeeded and failed so far, and why the first ones failed. */
  async get(jobId: string): Promise<MemberJob> {
    const row = await this.db
      .selectFrom('member_jobs')
      .selectAll()
      .where('id', '=', jobId)
      .executeTakeFirst();
    if (!row) throw notFound('job', jobId);
    const failures = JSON.parse(row.failures) as Array<{ id: string; code: string; description: string }>;
    return {
      id: row.id,
      action: row.action,
      status: row.status,
      createdDate: new Date(row.created_at),
      updatedDate: new Date(row.updated_at),
      ...(row.finished_at ? { finishedDate: new Date(row.finished_at) } : {}),
      bulkActionMetadata: {
        totalSuccesses: row.succeeded,
        totalFailures: row.failed,
        undetailedFailures: Math.max(0, row.failed - failures.length),
      },
      results: failures.map((failure) => ({
        itemMetadata: {
          id: failure.id,
          success: false as const,
          error: { code: failure.code, description: failure.description },
        },
      })),
    };
  }

  /**
   * Takes over the jobs whose process stopped working them (their lease ran out): a job of the
   * process's runtime, at start and every lease period after.
   */
  resumeOn(workers: Workers): void {
    workers.add({ name: 'member-jobs', everyMs: LEASE_MS, runAtStart: true, run: () => this.resume() });
  }

  /** Takes over, now, the jobs whose lease ran out. */
  async resume(): Promise<void> {
    if (this.closed) return;
    const abandoned = await this.db
      .selectFrom('member_jobs')
      .select('id')
      .where('status', '=', 'RUNNING')
      .where('lease_until', '<', new Date().toISOString())
      .execute();
    for (const { id } of abandoned) this.spawn(id);
  }

  /** Stops after the batches under way; a job left unfinished is resumed by the next process. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.running.values()]);
  }

  /** Every job this process is working has finished (tests wait on it). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }

  private spawn(id: string): void {
    if (this.running.has(id) || this.closed) return;
    const work = this.work(id)
      .catch(() => {
        // the lease runs out and a process takes the job over where its cursor says
      })
      .finally(() => this.running.delete(id));
    this.running.set(id, work);
  }

  private async work(id: string): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const job = await this.claim(id);
      if (!job) return;
      const ids = await this.members.idsMatching(
        JSON.parse(job.filter),
        job.search ? JSON.parse(job.search) : undefined,
        job.cursor,
        JOB_BATCH,
      );
      const now = new Date().toISOString();
      if (ids.length === 0) {
        await this.db
          .updateTable('member_jobs')
          .set({ status: 'FINISHED', finished_at: now, updated_at: now, lease_until: null })
          .where('id', '=', id)
          .execute();
        return;
      }
      let succeeded = 0;
      const failures: Array<{ id: string; code: string; description: string }> = [];
      for (const [index, memberId] of ids.entries()) {
        const result = await bulkItem(memberId, index, () => this.act(job, memberId));
        if (result.itemMetadata.success) succeeded++;
        else {
          failures.push({
            id: memberId,
            code: result.itemMetadata.error?.code ?? 'UNKNOWN',
            description: result.itemMetadata.error?.description ?? '',
          });
        }
      }
      const kept = JSON.parse(job.failures) as unknown[];
      await this.db
        .updateTable('member_jobs')
        .set({
          cursor: ids[ids.length - 1]!,
          succeeded: job.succeeded + succeeded,
          failed: job.failed + failures.length,
          failures: JSON.stringify([...kept, ...failures].slice(0, FAILURES_KEPT)),
          updated_at: new Date().toISOString(),
          lease_until: new Date(Date.now() + LEASE_MS).toISOString(),
        })
        .where('id', '=', id)
        .where('cursor', job.cursor === null ? 'is' : '=', job.cursor)
        .execute();
    }
  }

  /**
   * The job, if this process holds it: it takes the lease when free or its own (a conditional write,
   * so two processes never work one job at once).
   */
  private async claim(id: string): Promise<MemberJobRow | undefined> {
    const now = new Date();
    const held = await this.db
      .updateTable('member_jobs')
      .set({ lease_until: new Date(now.getTime() + LEASE_MS).toISOString(), lease_owner: this.owner })
      .where('id', '=', id)
      .where('status', '=', 'RUNNING')
      .where((eb) =>
        eb.or([
          eb('lease_until', 'is', null),
          eb('lease_until', '<', now.toISOString()),
          eb('lease_owner', '=', this.owner),
        ]),
      )
      .executeTakeFirst();
    if (Number(held.numUpdatedRows) === 0) return undefined;
    return this.db.selectFrom('member_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  private async act(job: MemberJobRow, memberId: string): Promise<unknown> {
    switch (job.action) {
      case 'DELETE':
        // the member who receives the content stays, even when the filter matches them
        if (memberId === job.content_assignee_id) {
          throw applicationError(
            'FAILED_PRECONDITION',
            'CONTENT_ASSIGNEE_NOT_DELETED',
            'the member who receives the content is kept, though the filter matches them',
            { memberId },
          );
        }
        return this.members.delete(memberId, job.content_assignee_id);
      case 'APPROVE':
        return this.members.approve(memberId);
      case 'BLOCK':
        return this.members.block(memberId);
    }
  }
}
