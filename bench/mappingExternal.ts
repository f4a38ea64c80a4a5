/**
 * Evidence mapping on policies nobody here wrote (issue 26): JupiterOne's author-labelled procedures
 * (test/fixtures/evaluation/jupiterone.ts), the engine beside keyword, BM25 and TF-IDF baselines built
 * from the same catalogue in the same run, per framework, on the held-out half (the honest figure) and
 * on the half the tuning looked at. Targets: engine F1 at least TF-IDF's + 0.10, engine precision at
 * least keyword ≥ 2's. Needs the package unpacked outside the repository (COMPLIANCE_EVAL_J1_DIR) for
 * HIPAA and SOC 2, and the authors' repository at the pinned commit (COMPLIANCE_EVAL_J1_REPO_DIR) for
 * NIST CSF 2.0 and ISO 27001.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateJupiterOne, loadJ1 } from '../test/fixtures/evaluation/jupiterOneEval.js';
import { J1_PACKAGE, J1_SNAPSHOT, jupiterOneDir, jupiterOneSnapshotDir } from '../test/fixtures/evaluation/jupiterone.js';
import type { BenchReport } from './report.js';

const round = (value: number): number => Math.round(value * 1000) / 1000;

export async function bench(report: BenchReport): Promise<void> {
  const dir = jupiterOneDir();
  if (!existsSync(join(dir, 'package.json'))) {
    report.note(`JupiterOne set not measured: ${J1_PACKAGE.name}@${J1_PACKAGE.version} is not unpacked at ${dir} (set COMPLIANCE_EVAL_J1_DIR; test/fixtures/evaluation/README.md)`);
    return;
  }
  if (!jupiterOneSnapshotDir()) {
    report.note(`J1 NIST CSF 2.0 and ISO 27001 not measured: COMPLIANCE_EVAL_J1_REPO_DIR is not set (a checkout of ${J1_SNAPSHOT.repository} at ${J1_SNAPSHOT.commit}; test/fixtures/evaluation/README.md)`);
  }
  const set = loadJ1(dir);
  for (const half of ['held-out', 'tuning'] as const) {
    for (const score of evaluateJupiterOne(set, half)) {
      const prefix = `J1 ${half} ${score.framework} (${score.procedures} procedures, ${score.labelled} labels)`;
      const by = (method: string) => score.methods.find((m) => m.method === method)!;
      const tfidf = by('TF-IDF top 3');
      const keyword = by('keyword ≥ 2');
      for (const m of score.methods) {
        const engine = m.method === 'engine: covered or partial';
        report.figure(`${prefix} ${m.method}: precision`, round(m.precision), '', engine ? `≥ ${round(keyword.precision)}` : undefined);
        report.figure(`${prefix} ${m.method}: recall`, round(m.recall), '');
        report.figure(`${prefix} ${m.method}: F1`, round(m.f1), '', engine ? `≥ ${round(tfidf.f1 + 0.1)}` : undefined, engine ? `${prefix} TF-IDF top 3: F1` : undefined);
      }
      const engine = by('engine: covered or partial');
      report.note(
        `${prefix}: engine F1 ${engine.f1.toFixed(2)} vs TF-IDF ${tfidf.f1.toFixed(2)} (target +0.10: ${engine.f1 >= tfidf.f1 + 0.1 ? 'met' : 'NOT met'}); ` +
          `precision ${engine.precision.toFixed(2)} vs keyword ${keyword.precision.toFixed(2)} (${engine.precision >= keyword.precision ? 'met' : 'NOT met'})`,
      );
    }
  }
}
