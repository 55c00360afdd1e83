// Runs the kvscope command as a user does (a child process) and returns its exit code and output. Test-only.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function kvscope(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run('node', ['bin/kvscope.mjs', ...args], { maxBuffer: 64 << 20 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}
