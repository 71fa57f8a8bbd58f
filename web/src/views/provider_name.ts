// web/src/views — provider names as a narrow column shows them. .NET providers share long
// prefixes ("Microsoft-Windows-DotNETRuntime", "…Rundown"): cut at the column's width they
// look the same, so the common prefix is left out and the full name goes in the tooltip.

/** Prefixes left out, longest first. */
const COMMON_PREFIXES = ['Microsoft-Windows-', 'Microsoft-'];

/** "Microsoft-Windows-DotNETRuntimeRundown" → "DotNETRuntimeRundown"; other names unchanged. */
export function shortProviderName(provider: string): string {
  for (const prefix of COMMON_PREFIXES) {
    if (provider.startsWith(prefix) && provider.length > prefix.length) return provider.slice(prefix.length);
  }
  return provider;
}
