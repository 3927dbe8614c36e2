import type { Migration } from 'kysely';

export const catalogMigrations: Record<string, Migration> = {};
