// A provider that redirects (a directory service pointing at the registry that holds the answer)
// sends the layer to a host nobody configured: that hop passes the same checks as a caller's URL.
// A refused hop is the provider's bad answer (502), not the caller's mistake: the verdict goes back
// to the layer, which names the provider.
import type { RedirectGuard } from '../upstream.ts';
import type { GuardPolicy } from './guard-types.ts';
import { checkHost } from './host-check.ts';
import { checkCallerUrl } from './url-policy.ts';

export function providerRedirectGuard(policy: GuardPolicy): RedirectGuard {
  return async (url, deadline, signal) => {
    const form = checkCallerUrl(url, policy);
    if (!form.ok) return { ok: false, message: form.message };
    const host = await checkHost(form.url, { policy, deadline, signal });
    return host.ok ? { ok: true, pinned: host.pinned } : { ok: false, message: host.message };
  };
}
