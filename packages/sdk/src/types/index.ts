export * from './catalog.ts';
export * from './paging.ts';
