import { it } from 'vitest';
import { startTestPlatform } from '../support/platform.ts';
for (const dialect of ['sqlite','postgres'] as const) it(`start ${dialect}`, async () => {
  for (let i=0;i<3;i++){
  const t=performance.now();
  const p = await startTestPlatform({ dialect });
  const t1=performance.now();
  await p.stop();
  console.log(dialect, 'start', Math.round(t1-t), 'stop', Math.round(performance.now()-t1));
  }
}, 120000);
