/**
 * The required scopes that were not granted, each once, in the order required;
 * empty when access is allowed. Matching is exact: `documents:read` does not
 * imply `documents:write`, nor does any scope act as a wildcard.
 */
export function missingScopes(granted: readonly string[], required: readonly string[]): string[] {
  const have = new Set(granted);
  return [...new Set(required)].filter((scope) => !have.has(scope));
}

/** True when every required scope was granted. */
export function hasScopes(granted: readonly string[], required: readonly string[]): boolean {
  return missingScopes(granted, required).length === 0;
}
