/**
 * Which compliance.yml sets the gate. A pull request is judged by the default branch's gate
 * configuration (its frameworks with their thresholds and modes, and its waivers), so lowering a
 * threshold or waiving a new gap in the same pull request cannot make its own check pass; what the
 * pull request would change in the gate is listed for reviewers instead. Its documents (what is
 * mapped) stay the pull request's own.
 */
import type { Config, FrameworkConfig, Waiver } from './config.js';
import type { EventPolicy } from './events.js';

export interface GateConfiguration {
  /** The configuration to run: the head's documents with the gate of `source`. */
  config: Config;
  source: 'base' | 'head';
  /** What the head's compliance.yml changes in the gate, one line each; empty when nothing. */
  changes: string[];
}

const id = (value: string) => value.trim().toLowerCase();
const waiverId = (waiver: Waiver) => `${id(waiver.framework)}\u0000${id(waiver.control)}`;
const describeWaiver = (waiver: Waiver) => `${waiver.framework} ${waiver.control} (owner ${waiver.owner}, until ${waiver.expires})`;

/** The gate differences from `base` to `head`, in words. */
export function gateChanges(base: Pick<Config, 'frameworks' | 'waivers'>, head: Pick<Config, 'frameworks' | 'waivers'>): string[] {
  const changes: string[] = [];
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
 * The configuration a run is judged by. With the event's `gateFromBaseBranch` and the default
 * branch's compliance.yml at hand, its frameworks and waivers replace the head's; without it
 * (no saved copy yet) the head's stand and `source` says so.
 */
export function gateConfiguration(policy: EventPolicy, head: Config, base: Config | undefined): GateConfiguration {
  if (!policy.gateFromBaseBranch || !base) return { config: head, source: 'head', changes: [] };
  return {
    config: { ...head, frameworks: base.frameworks, waivers: base.waivers },
    source: 'base',
    changes: gateChanges(base, head),
  };
}
