/**
 * Every check the validator can run, by id. Probe modules declare their checks here when they load; the
 * catalog's classification names these ids, and a test keeps both sides in step.
 */
import type { Area, CheckDef } from '../outcomes.js';

const checks = new Map<string, CheckDef>();

export function defineCheck(id: string, area: Area, title: string, options: { advisory?: boolean } = {}): string {
  if (checks.has(id)) throw new Error(`check ${id} is defined twice`);
  checks.set(id, { id, area, title, ...(options.advisory ? { advisory: true } : {}) });
  return id;
}

export function checkDef(id: string): CheckDef | undefined {
  return checks.get(id);
}

export function allChecks(): CheckDef[] {
  return [...checks.values()];
}
