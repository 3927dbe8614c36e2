export * from './store-admin.ts';
