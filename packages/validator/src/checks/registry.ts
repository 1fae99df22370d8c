/**
 * Every check the validator can run, by id. Probe modules declare their checks here when they load; the
 * catalog's classification names these ids, and a test keeps both sides in step.
 */
import type { Area, CheckDef } from '../outcomes.js';

const checks = new Map<string, CheckDef>();

export function defineCheck(
  id: string,
  area: Area,
  title: string,
  options: { advisory?: boolean; robustness?: boolean; facets?: readonly string[] } = {},
): string {
  if (checks.has(id)) throw new Error(`check ${id} is defined twice`);
  checks.set(id, {
    id,
    area,
    title,
    ...(options.advisory ? { advisory: true } : {}),
    ...(options.robustness ? { robustness: true } : {}),
    ...(options.facets === undefined ? {} : { facets: options.facets }),
  });
  return id;
}

/** `check#facet` → the check and the facet (undefined when the reference names the whole check). */
export function parseCheckRef(ref: string): { check: string; facet: string | undefined } {
  const hash = ref.indexOf('#');
  return hash === -1
    ? { check: ref, facet: undefined }
    : { check: ref.slice(0, hash), facet: ref.slice(hash + 1) };
}

export function checkDef(id: string): CheckDef | undefined {
  return checks.get(id);
}

export function allChecks(): CheckDef[] {
  return [...checks.values()];
}
