/**
 * Which compliance.yml sets the gate, and what the caller's flags or inputs may add to it. A pull
 * request is judged by the default branch's gate configuration (its frameworks with their
 * thresholds and modes, its waivers and its `failOn`), so lowering a threshold, relaxing failOn or
 * waiving a new gap in the same pull request cannot make its own check pass; what the pull request
 * would change in the gate is listed for reviewers instead. Its documents (what is mapped) stay the
 * pull request's own. A flag or input (`--fail-on`, the actions' `fail-on`, `threshold`, `waivers`)
 * can only make the gate stricter: on a pull request the workflow file is the pull request's own
 * text too.
 */
import type { Config, FrameworkConfig, MappingMode, Waiver } from './config.js';
import { ReviewError } from './errors.js';
import type { ChangeRequestWord, EventPolicy } from './events.js';
import type { FailOn } from './failOn.js';
import { tableCell } from './neutralise.js';

/** What the caller asks on top of compliance.yml (CLI flags, action inputs). */
export interface GateRequest {
  failOn?: FailOn | undefined;
  /**
   * Map this framework only (slug or name as compliance.yml writes it); one compliance.yml does
   * not list needs `threshold`. On a pull request judged by the base gate it adds a framework but
   * drops none: every framework of the default branch is judged.
   */
  framework?: string | undefined;
  /** A threshold for the frameworks mapped: on a pull request judged by the base gate it can only raise one. */
  threshold?: number | undefined;
  /** The mapping mode for the frameworks mapped (what is sent, not how it is judged). */
  mode?: MappingMode | undefined;
  /** Waivers added to compliance.yml's (the input wins for the same control); ignored on a pull request judged by the base gate. */
  waivers?: readonly Waiver[] | undefined;
  /** How the user names each of these (`fail-on`, `--fail-on`), for the notices. */
  labels?: { failOn?: string; framework?: string; threshold?: string; waivers?: string };
}

export interface GateConfiguration {
  /** The configuration to run: the head's documents with the gate of `source`, its `failOn` the one that applies. */
  config: Config;
  /** What fails the gate besides the thresholds (also `config.failOn`). */
  failOn: FailOn;
  source: 'base' | 'head';
  /** What the head's compliance.yml changes in the gate, one line each; empty when nothing. */
  changes: string[];
  /** Requests that would have loosened the gate and were not applied, one line each, for notices and the comment. */
  ignored: string[];
}

const id = (value: string) => value.trim().toLowerCase();
const waiverId = (waiver: Waiver) => `${id(waiver.framework)}\u0000${id(waiver.control)}`;
const describeWaiver = (waiver: Waiver) => `${waiver.framework} ${waiver.control} (owner ${waiver.owner}, until ${waiver.expires})`;

/** The gate differences from `base` to `head`, in words. */
export function gateChanges(base: Pick<Config, 'frameworks' | 'waivers' | 'failOn'>, head: Pick<Config, 'frameworks' | 'waivers' | 'failOn'>): string[] {
  const changes: string[] = [];
  const baseFailOn = base.failOn ?? 'coverage';
  const headFailOn = head.failOn ?? 'coverage';
  if (baseFailOn !== headFailOn) changes.push(`failOn ${baseFailOn} → ${headFailOn}`);
  const baseFrameworks = new Map(base.frameworks.map((entry) => [id(entry.framework), entry]));
  const headFrameworks = new Map(head.frameworks.map((entry) => [id(entry.framework), entry]));
  for (const [key, before] of baseFrameworks) {
    const after = headFrameworks.get(key);
    if (!after) {
      changes.push(`framework ${before.framework} removed (threshold ${before.threshold}%)`);
      continue;
    }
    if (after.threshold !== before.threshold) changes.push(`${before.framework}: threshold ${before.threshold}% → ${after.threshold}%`);
    if (after.mode !== before.mode) changes.push(`${before.framework}: mode ${before.mode} → ${after.mode}`);
    const documents = (entry: FrameworkConfig) => (entry.documents ?? ['(every document)']).join(', ');
    if (documents(after) !== documents(before)) changes.push(`${before.framework}: documents ${documents(before)} → ${documents(after)}`);
  }
  for (const [key, after] of headFrameworks) {
    if (!baseFrameworks.has(key)) changes.push(`framework ${after.framework} added (threshold ${after.threshold}%)`);
  }
  const baseWaivers = new Map(base.waivers.map((waiver) => [waiverId(waiver), waiver]));
  const headWaivers = new Map(head.waivers.map((waiver) => [waiverId(waiver), waiver]));
  for (const [key, before] of baseWaivers) {
    const after = headWaivers.get(key);
    if (!after) changes.push(`waiver removed: ${describeWaiver(before)}`);
    else if (after.expires !== before.expires || after.owner !== before.owner || after.reason !== before.reason) {
      changes.push(`waiver changed: ${describeWaiver(before)} → ${describeWaiver(after)}`);
    }
  }
  for (const [key, after] of headWaivers) if (!baseWaivers.has(key)) changes.push(`waiver added: ${describeWaiver(after)}`);
  return changes;
}

/**
 * The stricter of compliance.yml's failOn and a requested one. `coverage` (the thresholds alone)
 * is the loosest; the other two each add a check, so neither replaces the other: a request for a
 * different one than compliance.yml sets is not applied (undefined).
 */
function stricterFailOn(configured: FailOn, requested: FailOn | undefined): FailOn | undefined {
  if (requested === undefined || requested === configured) return configured;
  return configured === 'coverage' ? requested : undefined;
}

function mergeWaivers(config: readonly Waiver[], extra: readonly Waiver[]): Waiver[] {
  const overridden = new Set(extra.map(waiverId));
  return [...config.filter((waiver) => !overridden.has(waiverId(waiver))), ...extra];
}

/** The frameworks to map and judge: compliance.yml's, narrowed or extended by the request as far as `source` allows. */
function judgedFrameworks(
  configured: readonly FrameworkConfig[],
  source: 'base' | 'head',
  request: GateRequest,
  labels: Required<NonNullable<GateRequest['labels']>>,
  changeRequest: ChangeRequestWord,
  ignored: string[],
): FrameworkConfig[] {
  const { threshold, mode } = request;
  const requested = (entry: FrameworkConfig): FrameworkConfig => {
    const withMode = mode ? { ...entry, mode } : entry;
    if (threshold === undefined) return withMode;
    if (source === 'head' || threshold >= entry.threshold) return { ...withMode, threshold };
    ignored.push(`${labels.threshold} ${threshold}% not applied to ${entry.framework}: the default branch's compliance.yml sets ${entry.threshold}%, and on a ${changeRequest} an input can only raise it`);
    return withMode;
  };
  const named = request.framework?.trim();
  if (!named) return configured.map(requested);
  const wanted = named.toLowerCase();
  const listed = configured.filter((entry) => entry.framework.toLowerCase() === wanted);
  if (listed.length === 0) {
    if (threshold === undefined) {
      throw new ReviewError('invalid_config', `${labels.threshold} is required: ${named} is not among the frameworks of compliance.yml`, `Give ${labels.threshold} (0 to 100), or add the framework to compliance.yml.`);
    }
    const added: FrameworkConfig = { framework: named, threshold, documents: undefined, mode: mode ?? 'combined' };
    return source === 'base' ? [...configured, added] : [added];
  }
  if (source === 'head') return listed.map(requested);
  if (configured.length > listed.length) {
    ignored.push(`${labels.framework} ${named} does not narrow the gate: a ${changeRequest} is judged by every framework of the default branch's compliance.yml`);
  }
  return configured.map((entry) => (listed.includes(entry) ? requested(entry) : mode ? { ...entry, mode } : entry));
}

/**
 * The configuration a run is judged by. With the event's `gateFromBaseBranch` and the default
 * branch's compliance.yml at hand, its frameworks, waivers and failOn replace the head's; without
 * it (no saved copy yet) the head's stand and `source` says so. The request is then applied as far
 * as it makes the gate stricter; on every event a failOn looser than compliance.yml's is ignored.
 */
export function gateConfiguration(policy: EventPolicy, head: Config, base: Config | undefined, request: GateRequest = {}): GateConfiguration {
  const source = policy.gateFromBaseBranch && base ? 'base' : 'head';
  const judge = source === 'base' ? (base as Config) : head;
  const labels = { failOn: 'fail-on', framework: 'framework', threshold: 'threshold', waivers: 'waivers', ...request.labels };
  const ignored: string[] = [];
  const why = source === 'base' ? "the default branch's compliance.yml" : 'compliance.yml';

  const configured = judge.failOn ?? 'coverage';
  const failOn = stricterFailOn(configured, request.failOn) ?? configured;
  if (request.failOn !== undefined && failOn !== request.failOn) {
    ignored.push(`${labels.failOn} ${request.failOn} not applied: ${why} sets failOn: ${configured}, and a flag or input can only make the gate stricter`);
  }

  const frameworks = judgedFrameworks(judge.frameworks, source, request, labels, policy.changeRequest, ignored);

  let waivers = judge.waivers;
  const extra = request.waivers ?? [];
  if (extra.length > 0 && source === 'base') {
    ignored.push(`${labels.waivers} not applied (${extra.map(describeWaiver).join('; ')}): a ${policy.changeRequest} is judged by the waivers of the default branch's compliance.yml`);
  } else if (extra.length > 0) waivers = mergeWaivers(judge.waivers, extra);

  return {
    config: { ...head, frameworks, waivers, failOn },
    failOn,
    source,
    changes: source === 'base' ? gateChanges(base as Config, head) : [],
    ignored,
  };
}

/**
 * The lines every surface shows on the gate a change request is judged by (the pull request's
 * comment and job summary, report.md, a merge request's note): what its compliance.yml changes, and
 * which inputs were not applied. `changeRequest` is the forge's word (EventPolicy.changeRequest).
 */
export function gateNotes(gate: GateConfiguration, changeRequest: ChangeRequestWord): string[] {
  const lines: string[] = [];
  if (gate.changes.length > 0) {
    lines.push(`**This ${changeRequest} changes the gate in compliance.yml.** It is judged by the default branch's gate; the changes apply once merged: ${gate.changes.map(tableCell).join('; ')}.`);
  }
  if (gate.ignored.length > 0) {
    lines.push(`**Inputs that would loosen the gate were not applied** (the ${changeRequest}'s CI configuration is its own text too): ${gate.ignored.map(tableCell).join('; ')}.`);
  }
  return lines;
}
