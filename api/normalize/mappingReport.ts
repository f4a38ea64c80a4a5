/**
 * The mapping report: coverage (a percentage, 0..100), per-control evidence and the gap list.
 * Accepts `coverage`, `coveragePercent`, `coveragePercentage`, `coverage_pct`, a 0..1 ratio, an
 * object such as `{percent: 85}`, and derives the gap list from the controls when it is absent.
 */
import type { z } from 'zod/v4/mini';
import type { controlResult, gap, mappingReport } from '../schemas/responses.js';
import {
  type JsonObject,
  type NormalizeContext,
  defined,
  first,
  isRecord,
  objectOf,
  pickArray,
  pickNumber,
  pickText,
  toNumber,
  toText,
  token,
  unexpected,
} from './read.js';

type MappingReportModel = z.output<typeof mappingReport>;
type ControlResultModel = z.output<typeof controlResult>;
type GapModel = z.output<typeof gap>;
type ControlStatus = ControlResultModel['status'];

const COVERAGE_NAMES = [
  'coverage', 'coveragePercent', 'coveragePercentage', 'coverage_pct', 'coverage_percent', 'coveragePct',
  'coverageRatio', 'coverage_ratio', 'coverageScore', 'summary.coverage', 'summary.coveragePercent', 'result.coverage',
];
const CONTROL_LIST_NAMES = ['controls', 'controlResults', 'control_results', 'results', 'mappings', 'requirements'];
const GAP_LIST_NAMES = ['gaps', 'gapList', 'gap_list', 'missingControls', 'findings'];

/** Coverage in percent. Names that say "percent" are 0..100; otherwise a value up to 1 is a ratio. */
function coveragePercent(object: JsonObject): number | undefined {
  const found = first(object, COVERAGE_NAMES);
  if (!found) return undefined;
  let value: unknown = found.value;
  let name = found.name;
  if (isRecord(value)) {
    const inner = first(value, ['percent', 'percentage', 'pct', 'value', 'ratio', 'score']);
    if (!inner) return undefined;
    value = inner.value;
    name = inner.name;
  }
  const number = toNumber(value);
  if (number === undefined) return undefined;
  const isPercent = /perc|pct/i.test(name) || (typeof value === 'string' && value.trim().endsWith('%'));
  const percent = !isPercent && number <= 1 ? number * 100 : number;
  return Math.round(Math.min(Math.max(percent, 0), 100) * 100) / 100;
}

const STATUS_ALIASES: Record<string, ControlStatus> = {
  covered: 'covered', met: 'covered', satisfied: 'covered', full: 'covered', fully_covered: 'covered', compliant: 'covered', pass: 'covered', passed: 'covered', yes: 'covered',
  partial: 'partial', partially_covered: 'partial', partially_met: 'partial', partly: 'partial', incomplete: 'partial',
  missing: 'missing', gap: 'missing', not_covered: 'missing', unmet: 'missing', none: 'missing', absent: 'missing', fail: 'missing', failed: 'missing', no: 'missing', uncovered: 'missing',
};

function controlStatus(object: JsonObject): ControlStatus | undefined {
  const text = pickText(object, ['status', 'coverage', 'result', 'state', 'verdict']);
  if (text !== undefined && STATUS_ALIASES[token(text)]) return STATUS_ALIASES[token(text)];
  const covered = object.covered;
  if (typeof covered === 'boolean') return covered ? 'covered' : 'missing';
  return undefined;
}

function evidenceOf(value: unknown): ControlResultModel['evidence'] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return items.flatMap((item) => {
    if (typeof item === 'string') return [{ quote: item, location: {} }];
    if (!isRecord(item)) return [];
    const quote = pickText(item, ['quote', 'text', 'excerpt', 'snippet', 'content', 'evidence']);
    if (quote === undefined) return [];
    const location = isRecord(item.location) ? item.location : item;
    return [
      defined({
        ...item,
        quote,
        location: defined({
          ...(isRecord(item.location) ? item.location : {}),
          source: pickText(location, ['source', 'file', 'path', 'filename', 'document']),
          line: pickNumber(location, ['line', 'lineNumber', 'line_number']),
          section: pickText(location, ['section', 'heading', 'page']),
        }),
      }),
    ];
  });
}

function controlOf(raw: unknown, index: number, context: NormalizeContext): ControlResultModel {
  if (!isRecord(raw)) throw unexpected(context, `control ${index + 1} as an object`, ['an object'], raw);
  const id = pickText(raw, ['id', 'controlId', 'control_id', 'ref', 'code', 'control.id']);
  if (id === undefined) throw unexpected(context, `id of control ${index + 1}`, ['id', 'controlId', 'control_id', 'ref'], raw);
  const status = controlStatus(raw);
  if (status === undefined) throw unexpected(context, `status of control ${id}`, ['status', 'coverage', 'result', 'covered'], raw);
  return defined({
    ...raw,
    id,
    title: pickText(raw, ['title', 'name', 'control.title', 'description']) ?? id,
    status,
    score: pickNumber(raw, ['score', 'confidence']),
    evidence: evidenceOf(raw.evidence ?? raw.quotes ?? raw.matches),
  }) as ControlResultModel;
}

function gapOf(raw: unknown, index: number, context: NormalizeContext): GapModel {
  if (!isRecord(raw)) throw unexpected(context, `gap ${index + 1} as an object`, ['an object'], raw);
  const controlId = pickText(raw, ['controlId', 'control_id', 'id', 'ref', 'control.id']);
  if (controlId === undefined) throw unexpected(context, `control id of gap ${index + 1}`, ['controlId', 'control_id', 'id'], raw);
  return defined({
    ...raw,
    controlId,
    title: pickText(raw, ['title', 'name', 'control.title']) ?? controlId,
    status: controlStatus(raw) === 'partial' ? 'partial' : 'missing',
    missing: pickText(raw, ['missing', 'gap', 'description', 'whatIsMissing', 'detail', 'reason']) ?? '',
    recommendation: pickText(raw, ['recommendation', 'remediation', 'action', 'suggestion', 'fix']) ?? '',
  }) as GapModel;
}

export function normalizeMappingReport(raw: unknown, context: NormalizeContext): MappingReportModel {
  const outer = objectOf(raw, context, 'mapping report');
  const object = isRecord(outer.report) ? { ...outer, ...outer.report } : outer;
  const coverage = coveragePercent(object);
  if (coverage === undefined) throw unexpected(context, 'coverage percentage', COVERAGE_NAMES, object);
  const controls = (pickArray(object, CONTROL_LIST_NAMES) ?? []).map((item, index) => controlOf(item, index, context));
  const gapList = pickArray(object, GAP_LIST_NAMES);
  const gaps =
    gapList?.map((item, index) => gapOf(item, index, context)) ??
    controls
      .filter((control) => control.status !== 'covered')
      .map((control) => ({
        controlId: control.id,
        title: control.title,
        status: control.status === 'partial' ? ('partial' as const) : ('missing' as const),
        missing: '',
        recommendation: '',
      }));
  const frameworkValue = object.framework;
  const framework = isRecord(frameworkValue)
    ? defined({ ...frameworkValue, name: pickText(frameworkValue, ['name', 'title', 'slug']) ?? '', slug: pickText(frameworkValue, ['slug', 'id']) })
    : { name: toText(frameworkValue) ?? pickText(object, ['frameworkName', 'framework_name', 'standard']) ?? '' };
  const summary: MappingReportModel['summary'] = isRecord(object.summary)
    ? (object.summary as MappingReportModel['summary'])
    : {
        controls: controls.length,
        covered: controls.filter((control) => control.status === 'covered').length,
        partial: controls.filter((control) => control.status === 'partial').length,
        missing: controls.filter((control) => control.status === 'missing').length,
      };
  return defined({
    ...object,
    report: undefined,
    framework,
    coverage,
    summary,
    controls,
    gaps,
  }) as MappingReportModel;
}
