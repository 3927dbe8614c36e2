import type { PlatformConfig } from '../config.ts';
import type { Services } from '../platform.ts';

export async function seedDemoStore(_services: Services): Promise<void> {}
export async function resetDemoStore(_config: PlatformConfig): Promise<void> {}
