/** Which process runs each leased background job (workers/worker.ts). */
export interface WorkerTables {
  worker_leases: WorkerLeaseRow;
}

export interface WorkerLeaseRow {
  /** The job's name: `payment-sweep`, `event-bus:order-adoption`, ... */
  name: string;
  /** The runtime (one per process) that holds it. */
  holder: string;
  /** When the holder's claim ends unless it renews it: past it, any process may take the job. */
  expires_at: string;
}
