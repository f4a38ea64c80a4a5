/**
 * The n8n package as npm receives it: built (the n8n part only) and packed by the repository's own
 * scripts (`node scripts/build.mjs n8n`, `node scripts/pack.mjs --no-build n8n-nodes-compliance`),
 * then checked the way n8n verifies a community package and against this package's own targets:
 * - n8n's scanner (@n8n/scan-community-package, run by scripts/n8n/scan.mjs) on both of its legs:
 *   the source leg on the folder of the repository whose package.json bears the package's name (the
 *   scanner finds it that way in the commit the npm provenance attests) and the tarball leg on the
 *   unpacked tarball; its verdict and, with the same config, no warning either; and its source
 *   rules over our node and credential sources (outside that folder: the real scan never sees them);
 * - bundle sizes within their targets, no `console` in anything shipped, no runtime dependencies;
 * - every documentation link of the codex files and the credential resolves to a heading of the
 *   README it points at (GitHub's anchor rules);
 * - the minified bundle validates inputs exactly as the sources do.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Compliance } from '../../nodes/Compliance/Compliance.node.js';
import { N8N_SIZE_TARGETS } from '../../scripts/build-n8n.mjs';
import { fakeExecute } from '../n8n/unit/fakeContext.js';
import { buildPackage, PACKAGE_NAME, REPO } from '../n8n/real/harness.js';

const requireHere = createRequire(import.meta.url);

let work: string;
let tarball: string;
/** The unpacked tarball (npm's `package/` folder). */
let unpacked: string;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

beforeAll(() => {
  tarball = buildPackage();
  work = mkdtempSync(join(tmpdir(), 'n8n-package-'));
  unpacked = join(work, 'package');
  mkdirSync(unpacked);
  // As the scanner and n8n's installer unpack it.
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

interface ScanLeg {
  leg: string;
  passed: boolean;
  root?: string | null;
  verdict?: { passed: boolean; message: string | null; details: string | null };
  files: string[];
  findings: string[];
  known: string[];
}

describe('n8n verification scanner (@n8n/scan-community-package, via scripts/n8n/scan.mjs)', () => {
  let legs: Record<string, ScanLeg>;

  beforeAll(() => {
    // A process of its own without vitest's NODE_ENV=test, under which eslint-plugin-n8n-nodes-base
    // lints every file as if it were named "Test.node.ts".
    const env = { ...process.env };
    delete env.NODE_ENV;
    let out: string;
    try {
      out = execFileSync(process.execPath, [join(REPO, 'scripts/n8n/scan.mjs'), '--json', tarball], { cwd: REPO, env, encoding: 'utf8', timeout: 170_000 });
    } catch (error) {
      // Exit 1 on findings: the report is still on stdout.
      out = (error as { stdout?: string }).stdout ?? '';
      if (!out.trim()) throw error;
    }
    const report = JSON.parse(out) as { legs: ScanLeg[] };
    legs = Object.fromEntries(report.legs.map((l) => [l.leg, l]));
  }, 180_000);

  it("tarball leg: the scanner's verdict on the shipped JavaScript and package.json, and no warning", () => {
    const tarballLeg = legs.tarball!;
    expect(tarballLeg.verdict?.passed, `${tarballLeg.verdict?.message}\n${tarballLeg.verdict?.details}`).toBe(true);
    expect(tarballLeg.files).toEqual(['dist/credentials/ComplianceApi.credentials.js', 'dist/nodes/Compliance/Compliance.node.js', 'dist/nodes/ComplianceTrigger/ComplianceTrigger.node.js', 'package.json']);
    expect(tarballLeg.findings).toEqual([]);
    expect(tarballLeg.known).toEqual([]);
  });

  it('source leg: the scanner finds packages/n8n-nodes-compliance in the committed tree, which passes without a warning', () => {
    const sourceLeg = legs.source!;
    expect(sourceLeg.root).toBe('packages/n8n-nodes-compliance');
    expect(sourceLeg.verdict?.passed, `${sourceLeg.verdict?.message}\n${sourceLeg.verdict?.details}`).toBe(true);
    expect(sourceLeg.files).toEqual(['package.json']);
    expect(sourceLeg.findings).toEqual([]);
    expect(sourceLeg.known).toEqual([]);
  });

  it('the same source rules over the node and credential sources: nothing but the documented false positive, once per versioned node', () => {
    const beside = legs['node and credential sources']!;
    expect(beside.files).toContain('nodes/Compliance/v1/ComplianceV1.node.ts');
    expect(beside.files).toContain('credentials/ComplianceApi.credentials.ts');
    expect(beside.verdict?.passed, `${beside.verdict?.message}\n${beside.verdict?.details}`).toBe(true);
    expect(beside.findings).toEqual([]);
    expect(beside.known.map((message) => /nodes\/\w+\/v\d+\/\w+\.node\.ts/.exec(message)?.[0]).sort()).toEqual(['nodes/Compliance/v1/ComplianceV1.node.ts', 'nodes/ComplianceTrigger/v1/ComplianceTriggerV1.node.ts']);
  });
});

describe('the packed tarball', () => {
  it('holds only the nodes, the credential, package.json, README and LICENSE', () => {
    const outside = filesUnder(unpacked).filter((path) => !/^(package\.json|README\.md|LICENSE|dist\/(nodes|credentials)\/.+)$/.test(path));
    expect(outside).toEqual([]);
    expect(readFileSync(join(unpacked, 'README.md'), 'utf8')).toBe(readFileSync(join(REPO, 'packages', PACKAGE_NAME, 'README.md'), 'utf8'));
  });

  it('has no runtime dependencies, n8n-workflow as its peer, and a strict n8n section naming files it ships', () => {
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as Record<string, unknown> & {
      n8n: { strict: boolean; nodes: string[]; credentials: string[] };
    };
    expect(manifest.name).toBe(PACKAGE_NAME);
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.optionalDependencies ?? {}).toEqual({});
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
    expect(manifest.keywords).toContain('n8n-community-node-package');
    expect(manifest.n8n.strict).toBe(true);
    const shipped = filesUnder(unpacked);
    expect(manifest.n8n.nodes.length).toBe(2);
    for (const path of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) expect(shipped).toContain(path);
  });

  it('keeps each node bundle within its size target', () => {
    const sizes = Object.fromEntries(Object.keys(N8N_SIZE_TARGETS).map((path) => [path, statSync(join(unpacked, path)).size]));
    expect(Object.keys(sizes).sort()).toEqual(['dist/nodes/Compliance/Compliance.node.js', 'dist/nodes/ComplianceTrigger/ComplianceTrigger.node.js']);
    for (const [path, size] of Object.entries(sizes)) expect(size, `${path}: ${size} bytes`).toBeLessThanOrEqual(N8N_SIZE_TARGETS[path]!);
  });

  it("names each shipped class by its export, as n8n's loader records it (constructor.name), the bundles being minified (dist/ is what ships)", () => {
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as { n8n: { nodes: string[]; credentials: string[] } };
    for (const path of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
      const className = basename(path).split('.')[0]!;
      const exported = (requireHere(join(REPO, path)) as Record<string, new () => object>)[className]!;
      expect(new exported().constructor.name, path).toBe(className);
    }
  });

  it('ships no console call and no source map, and the JavaScript it ships is what dist/ holds', () => {
    const scripts = filesUnder(unpacked).filter((path) => path.endsWith('.js'));
    expect(scripts.length).toBe(3);
    expect(scripts.filter((path) => /\bconsole\b/.test(readFileSync(join(unpacked, path), 'utf8')))).toEqual([]);
    expect(filesUnder(unpacked).filter((path) => path.endsWith('.map'))).toEqual([]);
    // The checks below load the bundles from dist/ (where n8n-workflow resolves): the same bytes.
    for (const path of scripts) expect(readFileSync(join(unpacked, path)).equals(readFileSync(join(REPO, path))), path).toBe(true);
  });
});

/** GitHub's heading anchors (github-slugger): lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function githubAnchors(markdown: string): string[] {
  const anchors: string[] = [];
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || marker.startsWith(fence))) {
      fence = fence ? undefined : marker;
      continue;
    }
    const heading = fence ? null : /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (!heading) continue;
    // The rendered text: link text without the target, no inline markup.
    const text = heading[1]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]*>/g, '').replace(/[`*]/g, '');
    const slug = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.push(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

describe('documentation links', () => {
  it("GitHub's anchor rules, as implemented here", () => {
    expect(githubAnchors('# n8n-nodes-compliance\n## Set Auto-Top-Up\n### What’s new? (v2)\n```\n# not a heading\n```\n## Costs\n## Costs\n## `code` and [a link](https://x.y)\n')).toEqual([
      'n8n-nodes-compliance',
      'set-auto-top-up',
      'whats-new-v2',
      'costs',
      'costs-1',
      'code-and-a-link',
    ]);
  });

  it('every codex and credential documentation link resolves to a heading of the README it points at', () => {
    const root = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { repository: { url: string } };
    const web = root.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    expect(web).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    const readme = readFileSync(join(unpacked, 'README.md'), 'utf8');
    // Where the package's README is shown: its folder on GitHub (the README committed there, which
    // the tarball's README equals) and its npm page (the tarball's README).
    const homes = [`${web}/tree/main/packages/${PACKAGE_NAME}`, `${web}/blob/main/packages/${PACKAGE_NAME}/README.md`, `https://www.npmjs.com/package/${PACKAGE_NAME}`];
    const anchors = githubAnchors(readme);

    const links: Array<{ where: string; url: string }> = [];
    for (const path of filesUnder(unpacked).filter((p) => p.endsWith('.node.json'))) {
      const codex = JSON.parse(readFileSync(join(unpacked, path), 'utf8')) as { resources?: Record<string, Array<{ url: string }>> };
      for (const [kind, entries] of Object.entries(codex.resources ?? {})) for (const { url } of entries) links.push({ where: `${path} ${kind}`, url });
    }
    const credentialFile = 'dist/credentials/ComplianceApi.credentials.js';
    const { ComplianceApi } = requireHere(join(REPO, credentialFile)) as { ComplianceApi: new () => { documentationUrl: string } };
    links.push({ where: `${credentialFile} documentationUrl`, url: new ComplianceApi().documentationUrl });
    expect(links.length).toBe(5);

    const broken = links.filter(({ url }) => {
      const [base, anchor] = url.split('#');
      return !homes.includes(base!) || !anchor || !anchors.includes(anchor);
    });
    expect(broken, `README headings: ${anchors.join(', ')}`).toEqual([]);
  });
});

describe('the minified bundle validates inputs exactly as the sources do', () => {
  const rows: Array<[string, IDataObject]> = [
    ['search limit as text', { resource: 'library', operation: 'search', query: 'least privilege', returnAll: false, limit: 'ten' }],
    ['search with an empty query', { resource: 'library', operation: 'search', query: '   ', returnAll: false, limit: 5 }],
    ['ingest content of 199 characters', { resource: 'library', operation: 'ingest', title: 'Access review', content: 'x'.repeat(199), additionalFields: {} }],
    ['ingest title as an object', { resource: 'library', operation: 'ingest', title: { a: { b: 1 } }, content: 'x'.repeat(300), additionalFields: {} }],
    ['ingest tags as a number', { resource: 'library', operation: 'ingest', title: 'Access review', content: 'x'.repeat(300), additionalFields: { tags: 7 } }],
    ['auto-top-up threshold as text', { resource: 'billing', operation: 'setAutoTopUp', enabled: true, thresholdTokens: 'lots', pack: 'pack10' }],
    ['auto-top-up threshold below the minimum', { resource: 'billing', operation: 'setAutoTopUp', enabled: true, thresholdTokens: 99_999, pack: 'pack10' }],
    ['checkout of an unknown pack', { resource: 'billing', operation: 'createCheckout', pack: 'pack7' }],
    ['weekly cadence', { resource: 'calendar', operation: 'set', cadence: 'weekly' }],
    ['first review date in prose', { resource: 'calendar', operation: 'set', cadence: 'quarterly', firstReviewAt: 'next monday' }],
    ['job id that is not a UUID', { resource: 'job', operation: 'get', jobId: 'abc' }],
    ['path-escaping document id', { resource: 'library', operation: 'delete', documentId: '../../billing' }],
    ['framework slug with a slash', { resource: 'framework', operation: 'get', slug: 'gdpr/../billing' }],
  ];
  // Refused before sending: a request would show up in `requests` (and fail on this closed port).
  const credentials = { apiKey: 'csk_sandbox_release_check_0001', baseUrl: 'http://127.0.0.1:9/api/public/v1', authHeader: 'bearer' as const };

  async function run(node: INodeType, parameters: IDataObject): Promise<{ output: INodeExecutionData[][]; sent: number }> {
    const { context, requests } = fakeExecute({ credentials, parameters, continueOnFail: true });
    const output = (await node.execute!.call(context as IExecuteFunctions)) as INodeExecutionData[][];
    return { output, sent: requests.length };
  }

  it.each(rows)('%s', async (_name, parameters) => {
    const bundled = requireHere(join(REPO, 'dist/nodes/Compliance/Compliance.node.js')) as { Compliance: typeof Compliance };
    const fromBundle = await run(new bundled.Compliance().getNodeType(1), parameters);
    const fromSource = await run(new Compliance().getNodeType(1), parameters);
    expect(fromSource.sent).toBe(0);
    const message = fromSource.output[0]?.[0]?.json.error;
    expect(typeof message === 'string' && message.length > 10, String(message)).toBe(true);
    expect(fromBundle).toEqual(fromSource);
  });
});
