/** The full catalogue, in a stable order (ties in ranking keep this order). */
import { aiGovernanceFrameworks } from './frameworks/ai-governance.js';
import { euCybersecurityLaws } from './frameworks/eu-cybersecurity-laws.js';
import { financialFrameworks } from './frameworks/financial.js';
import { governmentContractingFrameworks } from './frameworks/government-contracting.js';
import { healthFrameworks } from './frameworks/health.js';
import { privacyFrameworks } from './frameworks/privacy.js';
import { securityStandards } from './frameworks/security-standards.js';
import type { FrameworkEntry } from './types.js';

export const frameworks: readonly FrameworkEntry[] = Object.freeze([
  ...securityStandards,
  ...privacyFrameworks,
  ...healthFrameworks,
  ...financialFrameworks,
  ...governmentContractingFrameworks,
  ...euCybersecurityLaws,
  ...aiGovernanceFrameworks,
]);
