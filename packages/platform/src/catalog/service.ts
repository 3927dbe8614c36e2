import type { Kysely } from 'kysely';
import type { Tables } from '../db/tables.ts';

export class CatalogService {
  constructor(
    readonly db: Kysely<Tables>,
    readonly options: { publicUrl: string },
  ) {}
}
