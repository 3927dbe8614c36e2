export { configFromEnv, type PlatformConfig } from './config.ts';
export { type Platform, type Services, startPlatform } from './platform.ts';
