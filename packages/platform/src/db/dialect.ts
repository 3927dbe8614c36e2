/** Which database the store runs on: SQLite (the default) or PostgreSQL (`DATABASE_URL`). */
export type DialectName = 'sqlite' | 'postgres';
