/**
 * Upload bombs against the built sandbox (its own process): another key's GET /ping p99 while each
 * bomb of test/sandbox/uploadBombs.ts is uploaded in turn, beside the p99 at rest measured just
 * before; the sandbox's peak RSS; how long each bomb took to be refused, and with which limit.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { latencies } from '../test/sandbox/pings.js';
import { buildBombs, percentile, runAttack } from '../test/sandbox/uploadBombs.js';
import type { BenchReport } from './report.js';

const CLI = 'dist/cli/compliance.cjs';
const ATTACKER = 'csk_sandbox_bench_attacker';
const BYSTANDER = 'csk_sandbox_bench_bystander';

export async function bench(report: BenchReport): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);
  const bombs = await buildBombs();
  const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--json', '--job-seconds', '0', '--rate-limit', '100000', '--key', ATTACKER, '--key', BYSTANDER], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
    });
    const { baseUrl } = JSON.parse(line) as { baseUrl: string };
    const attack = await runAttack({ baseUrl, pid: child.pid!, attacker: ATTACKER, bystander: BYSTANDER, bombs });
    const p99 = (pings: Parameters<typeof latencies>[0]) => Math.round(percentile(latencies(pings), 99) * 10) / 10;
    const atRest = 'upload attack: GET /ping p99 at rest';
    report.figure(atRest, p99(attack.atRest), 'ms');
    report.figure('upload attack: GET /ping p99 during the attack', p99(attack.underAttack), 'ms', '< 100 ms', atRest);
    report.figure('upload attack: sandbox peak RSS', Math.round(attack.peakRss / 1024 / 1024), 'MB', '< 1024 MB');
    for (const { bomb, answer } of attack.answers) {
      report.figure(`upload attack: ${bomb.name} refused in`, Math.round(answer.ms), 'ms');
      report.note(
        `upload attack: ${bomb.name}, ${Math.round(bomb.bytes.length / 1024)} KB inflating to ${Math.round(bomb.inflatesTo / 1024 / 1024)} MB: ` +
          `${answer.status} ${answer.body.error?.code ?? ''} (limit ${answer.body.error?.limit ?? 'none'})`,
      );
    }
    report.note(`upload attack: ${attack.atRest.length} pings at rest, ${attack.underAttack.length} during the attack, with a second key every 10 ms, none waiting for another; server is the built CLI in its own process`);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
