// The Python that tests of the training pipeline (training/py) run, and why they skip where it cannot.
import { spawnSync } from 'node:child_process';

/** Debian's python3 with python3-torch; override only to exercise the skip paths. */
export const PY = process.env.KVSCOPE_TEST_PY ?? '/usr/bin/python3';

/** Why PY cannot import `modules` (e.g. 'torch, numpy'), or null when it can. */
export function pythonLacks(modules: string): string | null {
  const r = spawnSync(PY, ['-c', `import ${modules}`], { encoding: 'utf8' });
  if (r.error) return `${PY} not runnable (${r.error.message})`;
  return r.status !== 0 ? `${PY} lacks ${modules.replace(/, /g, '/')} (${r.stderr.trim().split('\n').pop()})` : null;
}
